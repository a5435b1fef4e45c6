/** The waiting-room module's public face: the line in front of a busy sale's seat holds. */
export { createWaitingRoomRouter } from './waiting-room.routes.js';
export { createWaitingRoomService, type QueueMember, type WaitingRoomService } from './waiting-room.service.js';
export { createMemoryWaitingRoomStore, createRedisWaitingRoomStore, type WaitingRoomStore } from './waiting-room.store.js';
