import type { TourStatusId } from '../../../../domain/catalog.ts';
import { apiGet, apiPost, apiPut } from '../../api/http.ts';
import type { TableAnswer, TableRow } from '../../api/table.ts';

/** A pickup or dropoff as a tours row shows it; `time` is ISO, read in `timezone`. */
export interface TourPlace {
  address: string | null;
  city: string | null;
  state: string | null;
  time: string | null;
  timezone: string | null;
}

/** One row of GET /api/tours and /api/tours/assigned (server/routes/tours.routes.ts `rowOf`). */
export interface TourRow extends TableRow {
  id: string;
  loadId: string;
  loadGuid: string;
  status: number;
  statusName: string;
  driver: { id: string; name: string } | null;
  shipper: string | null;
  carrier: string | null;
  price: number;
  eldTruckName: string | null;
  pickup: TourPlace;
  dropoff: TourPlace;
  lastPositionAt: string | null;
  openedAt: string | null;
  shipperRated: boolean;
  carrierRated: boolean;
  actions: number[];
}

export interface TourStopView {
  id: string;
  locationType: number;
  name: string;
  address: string;
  city: string | null;
  state: string | null;
  latitude: number;
  longitude: number;
  arrived: boolean;
  departed: boolean;
  /** Facility contacts, when the server sends them to this caller. */
  contactName?: string | null;
  contactPhone?: string | null;
  number?: string | null;
}

/** GET /api/tours/{id}. */
export interface TourDetail {
  id: string;
  loadId: string;
  loadGuid: string;
  shipperOrganizationId: string;
  carrierOrganizationId: string;
  status: TourStatusId;
  statusName: string;
  assignee: { id: string; name: string | null } | null;
  price: number;
  eldTruckName: string | null;
  stops: TourStopView[];
  ratings: { shipperRated: boolean; carrierRated: boolean };
  openedAt: string;
  updatedAt: string;
}

export interface TrackPosition {
  latitude: number;
  longitude: number;
  /** Miles per hour. */
  speed: number | null;
  heading: number | null;
  recordedAt: string;
}

/** GET /api/tours/track/{id}: the tour with its recent trail, last position and ETA. */
export interface TourTrack extends TourDetail {
  trail: TrackPosition[];
  lastPosition: TrackPosition | null;
  eta: { at: string; remainingMiles: number } | null;
  nextStopId: string | null;
}

export type TimelineType = 'status' | 'note' | 'arrived' | 'departed' | 'delay' | 'issue';

export interface TimelineEntry {
  id: string;
  type: TimelineType;
  message: string;
  stopId: string | null;
  at: string;
  user: { id: string; name: string | null } | null;
}

export interface Assignee {
  id: string;
  name: string;
  phone: string | null;
  email: string | null;
  openTours: { id: string; loadGuid: string }[];
}

export interface RatingEntry {
  criteria: number;
  rating: number;
}

/** GET /api/tours/rating/{id}: the criteria of the caller's side, its own rating and the other side's. */
export interface RatingAnswer {
  tourId: string;
  status: number;
  open: boolean;
  side: 'shipper' | 'carrier';
  criteria: { id: number; name: string }[];
  mine: RatingEntry[] | null;
  theirs: RatingEntry[] | null;
}

export interface ChatMessage {
  id: string;
  user: { id: string; name: string | null };
  organizationId?: string | null;
  text: string;
  at: string;
}

/** A position as POST /api/tours/{id}/positions takes it (speed in mph). */
export interface PositionInput {
  latitude: number;
  longitude: number;
  speed: number | null;
  heading: number | null;
  accuracy: number | null;
  recordedAt: string;
}

const tourPath = (id: string) => `/tours/${encodeURIComponent(id)}`;

export const toursApi = {
  assigned: () => apiGet<TableAnswer<TourRow>>('/tours/assigned?page=1&pageSize=25'),
  tour: (id: string) => apiGet<TourDetail>(tourPath(id)),
  track: (id: string) => apiGet<TourTrack>(`/tours/track/${encodeURIComponent(id)}`),
  events: (id: string) => apiGet<TimelineEntry[]>(`${tourPath(id)}/events`),
  addEvent: (id: string, entry: { type: TimelineType; message: string; stopId?: string | null }) => apiPost<{ id: string }>(`${tourPath(id)}/events`, entry),
  changeStatus: (id: string, status: number, message: string) => apiPut<{ id: string; status: number; statusName: string }>(`${tourPath(id)}/status`, { status, message }),
  assignees: () => apiGet<Assignee[]>('/tours/assignees'),
  assign: (id: string, assigneeId: string) => apiPost<{ message: string }>(`${tourPath(id)}/assign/${encodeURIComponent(assigneeId)}`),
  rating: (id: string) => apiGet<RatingAnswer>(`/tours/rating/${encodeURIComponent(id)}`),
  rate: (id: string, ratings: RatingEntry[]) => apiPost<{ message: string }>(`${tourPath(id)}/rate`, { ratings }),
  chat: (id: string) => apiGet<ChatMessage[]>(`${tourPath(id)}/chat`),
  postChat: (id: string, message: string) => apiPost<{ id: string }>(`${tourPath(id)}/chat`, { message }),
  positions: (id: string, positions: PositionInput[]) => apiPost<{ accepted: number }>(`${tourPath(id)}/positions`, positions),
};
