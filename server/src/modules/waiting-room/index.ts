/** The waiting-room module's public face: the line in front of a busy sale's seat holds. */
export { createWaitingRoomRouter } from './waiting-room.routes.js';
export { createWaitingRoomService, type QueueMember, type WaitingRoomService } from './waiting-room.service.js';
export { createMemoryWaitingRoomStore, createRedisSharedRate, createRedisWaitingRoomStore, type WaitingRoomStore } from './waiting-room.store.js';
export { createAdmissionControl, createMemorySharedRate, type AdmissionControl } from './admission-control.js';
