/**
 * Facilities (docs/domain.md "Facilities"): the places trucks stop at, one page each. A stop belongs
 * to a facility when it lies within `FACILITY_RADIUS_METERS` of it; a saved location founds a
 * facility of its own id, any other stop far from every facility founds one named by its stop's id.
 * Drivers tag a facility after leaving it, its shippers reply (stream `facility-<id>`).
 */
import { ValidationError } from '../shared/errors.ts';
import type { Command, Decider, Event } from '../shared/event.ts';
import { distanceMeters, type LatLng } from '../tours/geo.ts';

export const facilityStream = (facilityId: string): string => `facility-${facilityId}`;

/** Stops this close to a facility are that facility. */
export const FACILITY_RADIUS_METERS = 200;

/** What a driver may say about a facility after leaving it. */
export const facilityTags = ['parking', 'restrooms', 'entrance', 'staff', 'wait'] as const;
export type FacilityTag = (typeof facilityTags)[number];
export const isFacilityTag = (value: unknown): value is FacilityTag =>
  (facilityTags as readonly unknown[]).includes(value);

/** A facility as the clustering sees it: where it is and in which order it was founded. */
export type FacilityPoint = LatLng & { id: string; founded: number };

/**
 * The facility a place belongs to: the nearest one within `FACILITY_RADIUS_METERS`, the earliest
 * founded on a tie; null when none is that close (the place founds a new one).
 */
export const facilityFor = (place: LatLng, facilities: readonly FacilityPoint[]): string | null => {
  let best: { id: string; distance: number; founded: number } | null = null;
  for (const facility of facilities) {
    const distance = distanceMeters(place, facility);
    if (distance > FACILITY_RADIUS_METERS) continue;
    if (
      !best ||
      distance < best.distance ||
      (distance === best.distance && facility.founded < best.founded)
    )
      best = { id: facility.id, distance, founded: facility.founded };
  }
  return best?.id ?? null;
};

/** The latitude and longitude span around a place that holds every facility within the radius. */
export const searchBox = (place: LatLng) => {
  const latitudeSpan = (FACILITY_RADIUS_METERS * 1.1) / 111_000;
  const longitudeSpan =
    latitudeSpan / Math.max(0.01, Math.cos((Math.abs(place.latitude) * Math.PI) / 180));
  return {
    minLatitude: place.latitude - latitudeSpan,
    maxLatitude: place.latitude + latitudeSpan,
    minLongitude: place.longitude - longitudeSpan,
    maxLongitude: place.longitude + longitudeSpan,
  };
};

/** A driver's tags for a facility; a later tagging by the same driver replaces the earlier. */
export type FacilityTagged = Event<
  'FacilityTagged',
  {
    facilityId: string;
    tags: FacilityTag[];
    /** The tour whose departure from the facility entitles the driver. */
    tourId: string;
    taggedBy: string;
    organizationId: string | null;
    taggedAt: string;
  }
>;
/** A shipper's reply on the facility's page. */
export type FacilityReplied = Event<
  'FacilityReplied',
  {
    facilityId: string;
    replyId: string;
    text: string;
    organizationId: string;
    repliedBy: string;
    repliedAt: string;
  }
>;
export type FacilityEvent = FacilityTagged | FacilityReplied;

/** `tourId`: a tour of the driver that left the facility, found by the command side (null: none). */
export type TagFacility = Command<
  'TagFacility',
  {
    facilityId: string;
    tags: readonly string[];
    tourId: string;
    userId: string;
    organizationId: string | null;
    now: string;
  }
>;
export type ReplyToFacility = Command<
  'ReplyToFacility',
  {
    facilityId: string;
    replyId: string;
    text: string;
    organizationId: string;
    userId: string;
    now: string;
  }
>;
export type FacilityCommand = TagFacility | ReplyToFacility;

/** Each driver's latest tags and the replies' ids. */
export type FacilityState = { tagsBy: Record<string, FacilityTag[]>; replies: string[] };

export const REPLY_MAX = 1000;

const evolveFacility = (state: FacilityState, event: FacilityEvent): FacilityState =>
  event.type === 'FacilityTagged'
    ? { ...state, tagsBy: { ...state.tagsBy, [event.data.taggedBy]: event.data.tags } }
    : { ...state, replies: [...state.replies, event.data.replyId] };

const decideFacility = (command: FacilityCommand, state: FacilityState): FacilityEvent[] => {
  if (command.type === 'TagFacility') {
    const d = command.data;
    if (d.tags.length === 0) throw ValidationError.field('tags', 'Choose at least one tag');
    d.tags.forEach((tag, index) => {
      if (!isFacilityTag(tag))
        throw ValidationError.field(
          `tags.${index}`,
          `Not a facility tag: ${facilityTags.join(', ')}`,
        );
    });
    const tags = facilityTags.filter((tag) => d.tags.includes(tag));
    const before = state.tagsBy[d.userId];
    if (before && before.length === tags.length && before.every((tag, i) => tag === tags[i]))
      return [];
    return [
      {
        type: 'FacilityTagged',
        data: {
          facilityId: d.facilityId,
          tags,
          tourId: d.tourId,
          taggedBy: d.userId,
          organizationId: d.organizationId,
          taggedAt: d.now,
        },
      },
    ];
  }
  const d = command.data;
  const text = d.text.trim();
  if (!text) throw ValidationError.field('text', 'Please write your reply');
  if (text.length > REPLY_MAX)
    throw ValidationError.field('text', `The reply can have at most ${REPLY_MAX} characters`);
  if (state.replies.includes(d.replyId)) return [];
  return [
    {
      type: 'FacilityReplied',
      data: {
        facilityId: d.facilityId,
        replyId: d.replyId,
        text,
        organizationId: d.organizationId,
        repliedBy: d.userId,
        repliedAt: d.now,
      },
    },
  ];
};

export const facilityDecider: Decider<FacilityState, FacilityCommand, FacilityEvent> = {
  initialState: () => ({ tagsBy: {}, replies: [] }),
  evolve: evolveFacility,
  decide: decideFacility,
};
