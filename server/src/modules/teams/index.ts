/** The teams module's public face (docs/decisions/server-boundaries.md): organisers' helpers, their invitations and roles. */
export { createTeamsRouter } from './teams.routes.js';
export { createTeamsService, type TeamsService } from './teams.service.js';
export { teamsPersonalData } from './personal-data.js';
export { teamsRetention } from './retention.js';
