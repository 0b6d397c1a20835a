/**
 * The socket.io rooms (docs/api.md "Realtime") and who joins which. Every emit names rooms; nothing is
 * ever sent to everyone.
 *
 * Organization rooms come in two kinds: `org:<id>` (every member) and `org:<id>:<code>` (the
 * members whose role holds that permission code). The notifier uses the second kind, so a Driver,
 * who belongs to its carrier but holds no offer permission and sees only its own tours, never
 * hears about its organization's offers or other drivers' tours.
 */
import {
  LOADS_CARRIER,
  PROPOSAL_NEW_NOTIFICATION,
  PROPOSAL_VIEW,
  Role,
  TOURS_ALL,
  hasAny,
  permissionsFor,
} from '../../domain/permissions.ts';

export const MARKETPLACE_ROOM = 'marketplace';
export const userRoom = (userId: string) => `user:${userId}`;
export const organizationRoom = (organizationId: string) => `org:${organizationId}`;
export const tourRoom = (tourId: string) => `tour:${tourId}`;
/** The holders of a tour's tracking links: positions and redacted status changes only (no chat, no names). */
export const sharedTourRoom = (tourId: string) => `sharedtour:${tourId}`;
/** The sockets opened with one tracking link: closed together when it is revoked. */
export const shareRoom = (shareId: string) => `share:${shareId}`;
/** Members of the organization whose role holds `code`. */
export const organizationPermissionRoom = (organizationId: string, code: number) =>
  `org:${organizationId}:${code}`;

/** The permission codes that have organization rooms: who hears of new offers, of offer changes, of tours. */
export const ROOM_PERMISSIONS = [PROPOSAL_NEW_NOTIFICATION, PROPOSAL_VIEW, TOURS_ALL] as const;

/** `organizationStatus`: the organization's status at the handshake (2 Active); only an Active carrier hears the marketplace. */
export type RoomMember = {
  userId: string;
  organizationId: string | null;
  roleId: number;
  organizationStatus?: number | null;
};

/** The rooms a socket joins at the handshake, from its access token's claims. */
export function roomsOf(member: RoomMember): string[] {
  const rooms = [userRoom(member.userId)];
  const permissions = permissionsFor(member.roleId);
  if (member.organizationId) {
    rooms.push(organizationRoom(member.organizationId));
    for (const code of ROOM_PERMISSIONS) {
      if (hasAny(permissions, code))
        rooms.push(organizationPermissionRoom(member.organizationId, code));
    }
  }
  // Carriers (dispatchers) of an Active organization browse the marketplace; a Superadmin, drivers and a
  // carrier still waiting for its vetting (Pending) do not get its stream.
  if (
    member.roleId === Role.Carrier &&
    hasAny(permissions, LOADS_CARRIER) &&
    member.organizationStatus === 2
  )
    rooms.push(MARKETPLACE_ROOM);
  return rooms;
}
