/** The community module's public face (docs/decisions/server-boundaries.md): comments, forums and reviews. */
export { createCommentsRouter } from './comments.routes.js';
export { createCommentsService } from './comments.service.js';
export { createForumsRouter } from './forums.routes.js';
export { createForumsService } from './forums.service.js';
export { createReviewsRouter } from './reviews.routes.js';
export { createReviewsService } from './reviews.service.js';
export { createContentModeration, type ContentKind, type ContentModeration, type ContentRow } from './content-moderation.js';
export { HIDDEN_CONTENT } from './community.shared.js';
export { createSpamBrakes, type ReviewQueue, type SpamBrakes } from './spam-brakes.js';
export { communityPersonalData } from './personal-data.js';
