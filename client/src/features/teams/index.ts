/*
 * Teams feature (server module teams, docs/decisions/teams.md): the organiser's "Team" section (per event and
 * for all events) and the invitee's invitations and the events they help with.
 */
export { MyTeams } from './components/my-teams';
export { TeamSection } from './components/team-section';
