/**
 * Shipments brought to a stage through the commands the routes call, without HTTP, for specs whose
 * subject is a later step. Each step appends what its request would and returns once every read
 * model has it, so that the spec's next request reads it; a refused step throws.
 *
 *   const steps = shipmentSteps(platform);
 *   const { loadId, offerId, tourId } = await steps.accepted({ shipper, carrier });
 *   await steps.tourAt('dispatched', { shipper, carrier, driver });
 */
import { GenericStatus, TourStatus, type TourStatusId } from '../../domain/catalog.ts';
import { Role, type RoleId } from '../../domain/permissions.ts';
import { loadBodySchema } from '../../domain/schemas/load.schema.ts';
import { allProjections } from '../../projections/index.ts';
import { PDF, type Member } from '../identity/fixtures.ts';
import { createFileStore } from '../integrations/files/files.ts';
import type { Platform } from '../platform.ts';
import { callerFor } from './callers.ts';
import { loadBody } from './loadBodies.ts';

type User = Pick<Member, 'userId' | 'organizationId'>;

export type Parties = {
  shipper: User;
  carrier: User;
  /** Carriers whose offers lose: each offers more than the winner, in order. */
  rivals?: User[];
};

/** The stages of a tour the steps reach, in order. */
const stages = [
  'confirmed',
  'assigned',
  'dispatched',
  'inTransit',
  'pendingConfirmation',
  'delivered',
] as const;
export type TourStage = (typeof stages)[number];

export function shipmentSteps(platform: Platform) {
  const { marketplace, store, runner } = platform;
  const files = createFileStore(platform.database.db);
  const views = allProjections.map((projection) => projection.name);
  const now = () => new Date().toISOString();
  const as = (user: User, roleId: RoleId) => callerFor(user, roleId);

  /** Waits until every read model has everything appended so far. */
  const settled = async () => {
    const head = await store.committedHead();
    if (!(await runner.waitFor(views, head, 30_000)))
      throw new Error('the read models did not catch up');
  };

  const postLoad = async (shipper: User, overrides: Record<string, unknown> = {}) => {
    const at = now();
    const { id, guid } = await marketplace.postLoad(
      as(shipper, Role.Shipper),
      loadBodySchema(at).parse(loadBody(overrides)),
      at,
    );
    await settled();
    return { loadId: id, guid };
  };

  const submitOffer = async (
    carrier: User,
    loadId: string,
    offer: { price?: number; message?: string; eldTruckName?: string } = {},
  ) => {
    const { id } = await marketplace.submitOffer(
      as(carrier, Role.Carrier),
      loadId,
      {
        price: offer.price ?? 1500,
        message: offer.message ?? '',
        eldTruckName: offer.eldTruckName ?? null,
      },
      now(),
    );
    await settled();
    return id;
  };

  /** PUT proposal/{id} as the shipper (accept 5, decline 12, counter 11) or the carrier (accept the counter 10, withdraw 7). */
  const answerOffer = async (
    user: User,
    roleId: RoleId,
    offerId: string,
    change: { status: number; price?: number; message?: string },
  ) => {
    await marketplace.changeOffer(
      as(user, roleId),
      offerId,
      { status: change.status, price: change.price ?? null, message: change.message ?? '' },
      now(),
    );
    await settled();
  };

  /** The shipper accepts the offer; answers the tour it opened. */
  const acceptOffer = async (shipper: User, offerId: string) => {
    await answerOffer(shipper, Role.Shipper, offerId, { status: GenericStatus.Accepted });
    const { loadId } = (await marketplace.loadOffer(offerId))!;
    const tourId = (await marketplace.loadLoad(loadId))?.tourId;
    if (!tourId) throw new Error('no tour opened');
    return tourId;
  };

  /** The winning carrier's signed contract, as POST proposal/load/{loadId} stores and records it. */
  const signContract = async (carrier: User, loadId: string) => {
    const contractFileId = await files.save({
      organizationId: carrier.organizationId!,
      kind: 'contract',
      loadId,
      mime: 'application/pdf',
      data: PDF,
    });
    await marketplace.uploadContract(as(carrier, Role.Carrier), loadId, contractFileId, now());
    await settled();
    return contractFileId;
  };

  const assignDriver = async (carrier: User, tourId: string, driver: User) => {
    await marketplace.assignTour(as(carrier, Role.Carrier), tourId, driver.userId, now());
    await settled();
  };

  const moveTour = async (
    user: User,
    roleId: RoleId,
    tourId: string,
    to: TourStatusId,
    message = '',
  ) => {
    await marketplace.changeTourStatus(as(user, roleId), tourId, to, message, now());
    await settled();
  };

  const postMessage = async (user: User, roleId: RoleId, tourId: string, text: string) => {
    const name = (await platform.identity.loadUser(user.userId))?.name ?? 'User';
    await marketplace.postChatMessage(as(user, roleId), tourId, text, name, now());
    await settled();
  };

  const rateTour = async (
    user: User,
    roleId: RoleId,
    tourId: string,
    ratings: { criteria: number; rating: number }[],
  ) => {
    await marketplace.rateTour(as(user, roleId), tourId, ratings, now());
    await settled();
  };

  /** A load posted and offered on by the carrier (and its rivals); nothing accepted yet. */
  const offered = async (parties: Parties, options: { price?: number; load?: object } = {}) => {
    const price = options.price ?? 1500;
    const { loadId, guid } = await postLoad(parties.shipper, { ...options.load });
    const offerId = await submitOffer(parties.carrier, loadId, { price });
    const rivalOfferIds: string[] = [];
    for (const [index, rival] of (parties.rivals ?? []).entries())
      rivalOfferIds.push(await submitOffer(rival, loadId, { price: price + 100 * (index + 1) }));
    return { loadId, guid, offerId, rivalOfferIds };
  };

  /** The carrier's offer accepted (the rivals' declined): the tour is open, Bid Accepted. */
  const accepted = async (parties: Parties, options: { price?: number; load?: object } = {}) => {
    const shipment = await offered(parties, options);
    const tourId = await acceptOffer(parties.shipper, shipment.offerId);
    return { ...shipment, tourId };
  };

  /** A tour taken from acceptance to the stage, the driver assigned from 'assigned' on. */
  const tourAt = async (
    stage: TourStage,
    parties: Parties & { driver: User },
    options: { price?: number; load?: object } = {},
  ) => {
    const shipment = await accepted(parties, options);
    const { shipper, carrier, driver } = parties;
    const { loadId, tourId } = shipment;
    const reached = (step: TourStage) => stages.indexOf(stage) >= stages.indexOf(step);
    await signContract(carrier, loadId);
    if (reached('assigned')) await assignDriver(carrier, tourId, driver);
    if (reached('dispatched'))
      await moveTour(driver, Role.Driver, tourId, TourStatus.Dispatched, 'Rolling');
    if (reached('inTransit')) await moveTour(driver, Role.Driver, tourId, TourStatus.InTransit);
    if (reached('pendingConfirmation'))
      await moveTour(driver, Role.Driver, tourId, TourStatus.PendingDeliveryConfirmation);
    if (reached('delivered')) await moveTour(shipper, Role.Shipper, tourId, TourStatus.Delivered);
    return shipment;
  };

  return {
    settled,
    postLoad,
    submitOffer,
    answerOffer,
    acceptOffer,
    signContract,
    assignDriver,
    moveTour,
    postMessage,
    rateTour,
    offered,
    accepted,
    tourAt,
  };
}
