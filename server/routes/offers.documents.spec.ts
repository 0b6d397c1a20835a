import { PDFDocument } from 'pdf-lib';
import t from 'tap';
import { loadStream } from '../../domain/loads/load.types.ts';
import { offerStream, rateConfirmationStream } from '../../domain/offers/offer.types.ts';
import { tourStream } from '../../domain/tours/tour.types.ts';
import { organization, PDF, PNG } from '../identity/fixtures.ts';
import { watchEvents } from '../testing/events.ts';
import { requester, type Upload } from '../testing/http.ts';
import { shipmentSteps } from '../testing/shipmentSteps.ts';
import { startTestApp } from '../testing/testApp.ts';

/**
 * The accepted offer's papers: the rate confirmation PDF its parties download (its hash recorded in
 * the load's audit trail), and the signed contract only the winning carrier uploads, which confirms
 * the carrier on the tour.
 */
const { app, platform, close } = await startTestApp();
t.teardown(close);
const as = requester(app);
const steps = shipmentSteps(platform);

const contract = (content: Buffer): Upload => ({
  fields: { status: '14' },
  files: { contract: { content, filename: 'signed.pdf', type: 'application/pdf' } },
});

t.test(
  'the winning carrier downloads the rate confirmation; the declined carrier gets 404',
  async (t) => {
    const shipper = await organization(app, platform, 'Shipper');
    const carrier = await organization(app, platform, 'Carrier');
    const declined = await organization(app, platform, 'Carrier');
    const { loadId, guid, offerId, rivalOfferIds } = await steps.accepted({
      shipper,
      carrier,
      rivals: [declined],
    });
    const events = await watchEvents(platform.store);

    const pdf = await as(carrier).get(`/api/proposal/${offerId}/rate-confirmation`);
    t.equal(pdf.status, 200, pdf.text.slice(0, 200));
    t.equal(pdf.headers['content-type'], 'application/pdf');
    t.match(
      pdf.headers['content-disposition'],
      new RegExp(`attachment; filename="rate-confirmation-${guid}\\.pdf"`),
    );
    t.equal(pdf.raw.subarray(0, 5).toString(), '%PDF-');
    t.ok((await PDFDocument.load(pdf.raw)).getPageCount() >= 1, 'a PDF with pages');
    await events.expect(t, [
      {
        type: 'RateConfirmationIssued',
        stream: rateConfirmationStream(offerId),
        data: {
          proposalId: offerId,
          loadId,
          sha256: pdf.headers['x-content-sha256'],
          issuedTo: carrier.userId,
        },
      },
    ]);

    t.equal(
      (await as(declined).get(`/api/proposal/${rivalOfferIds[0]}/rate-confirmation`)).status,
      404,
      'no confirmation for a declined offer',
    );
    t.equal(
      (await as(declined).get(`/api/proposal/${offerId}/rate-confirmation`)).status,
      404,
      "nor the winner's for the declined carrier",
    );
    await events.expect(t, [], { message: 'the refusals appended nothing' });

    const history = (await as(carrier).get(`/api/loads/${loadId}/history`)).body;
    const issued = history.events.find(
      (event: { type: string }) => event.type === 'RateConfirmationIssued',
    );
    t.equal(
      issued?.data.sha256,
      pdf.headers['x-content-sha256'],
      'the hash of the bytes handed out is in the audit trail',
    );
  },
);

t.test(
  'only the winning carrier uploads the signed contract, a real PDF; the carrier is confirmed',
  async (t) => {
    const shipper = await organization(app, platform, 'Shipper');
    const carrier = await organization(app, platform, 'Carrier');
    const declined = await organization(app, platform, 'Carrier');
    const { loadId, offerId, tourId } = await steps.accepted({
      shipper,
      carrier,
      rivals: [declined],
    });
    const url = `/api/proposal/load/${loadId}`;
    const events = await watchEvents(platform.store);

    t.equal(
      (await as(carrier).upload(url, contract(PNG))).status,
      415,
      'a PNG named .pdf is refused by its bytes',
    );
    t.equal(
      (await as(declined).upload(url, contract(PDF))).status,
      404,
      'only the winning carrier',
    );
    await events.expect(t, [], { message: 'the refused uploads appended nothing' });

    const signed = await as(carrier).upload(url, contract(PDF));
    t.equal(signed.status, 200, signed.text);
    await events.expect(t, [
      { type: 'ContractUploaded', stream: offerStream(offerId), data: { loadId } },
      { type: 'LoadContractSigned', stream: loadStream(loadId) },
      { type: 'CarrierConfirmed', stream: tourStream(tourId) },
    ]);
    t.match((await as(shipper).get('/api/loads/shipper')).body.data[0], {
      id: loadId,
      status: 8,
      statusName: 'Carrier Confirmed',
      loadStatus: 6,
    });
  },
);
