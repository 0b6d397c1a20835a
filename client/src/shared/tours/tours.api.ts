import type { MessageAnswer } from '../../../../domain/contracts/common.ts';
import type {
  AcceptedPositions,
  Assignee,
  ChatMessage,
  CreatedId,
  PositionInput,
  RatingAnswer,
  RatingEntry,
  StatusChanged,
  TimelineEntry,
  TimelineType,
  TourDetail,
  TourRow,
  TourTrack,
} from '../../../../domain/contracts/tours.contract.ts';
import { apiGet, apiPost, apiPut } from '../../api/http.ts';
import type { TableAnswer } from '../../api/table.ts';

export type {
  Assignee,
  ChatMessage,
  PositionInput,
  RatingAnswer,
  RatingEntry,
  TimelineEntry,
  TimelineType,
  TourDetail,
  TourPlace,
  TourRow,
  TourStopView,
  TourTrack,
  TrackPosition,
} from '../../../../domain/contracts/tours.contract.ts';

const tourPath = (id: string) => `/tours/${encodeURIComponent(id)}`;

export const toursApi = {
  assigned: () => apiGet<TableAnswer<TourRow>>('/tours/assigned?page=1&pageSize=25'),
  tour: (id: string) => apiGet<TourDetail>(tourPath(id)),
  track: (id: string) => apiGet<TourTrack>(`/tours/track/${encodeURIComponent(id)}`),
  events: (id: string) => apiGet<TimelineEntry[]>(`${tourPath(id)}/events`),
  addEvent: (id: string, entry: { type: TimelineType; message: string; stopId?: string | null }) =>
    apiPost<CreatedId>(`${tourPath(id)}/events`, entry),
  /** The shipper confirms the delivery on the driver's proof: Delivered, and the carrier's invoice drafted. */
  confirmDelivery: (id: string) =>
    apiPost<{ tourId: string; invoiceId: string | null }>(`${tourPath(id)}/confirm-delivery`, {}),
  changeStatus: (id: string, status: number, message: string) =>
    apiPut<StatusChanged>(`${tourPath(id)}/status`, { status, message }),
  assignees: () => apiGet<Assignee[]>('/tours/assignees'),
  /** `truck`: the tractor (and trailer) sent with the driver; the dock checks the tractor at pickup. */
  assign: (
    id: string,
    assigneeId: string,
    truck?: { tractorNumber: string; trailerNumber?: string | null },
  ) =>
    apiPost<MessageAnswer>(
      `${tourPath(id)}/assign/${encodeURIComponent(assigneeId)}`,
      truck?.tractorNumber ? truck : undefined,
    ),
  rating: (id: string) => apiGet<RatingAnswer>(`/tours/rating/${encodeURIComponent(id)}`),
  rate: (id: string, ratings: RatingEntry[]) =>
    apiPost<MessageAnswer>(`${tourPath(id)}/rate`, { ratings }),
  chat: (id: string) => apiGet<ChatMessage[]>(`${tourPath(id)}/chat`),
  postChat: (id: string, message: string) =>
    apiPost<CreatedId>(`${tourPath(id)}/chat`, { message }),
  positions: (id: string, positions: PositionInput[]) =>
    apiPost<AcceptedPositions>(`${tourPath(id)}/positions`, positions),
};
