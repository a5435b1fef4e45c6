import { useT } from '../../../lib/i18n';
import type { TeamRole } from '../api/teams-api';

/** A role's name and what it may do, in the reader's language (literal keys, so the catalogs build finds them). */
export function useRoleTexts() {
  const t = useT();
  const names: Record<TeamRole, string> = { co_organiser: t('teams.roleCoOrganiser'), finance: t('teams.roleFinance'), gate_staff: t('teams.roleGateStaff') };
  const notes: Record<TeamRole, string> = { co_organiser: t('teams.noteCoOrganiser'), finance: t('teams.noteFinance'), gate_staff: t('teams.noteGateStaff') };
  return { names, notes };
}

export function RoleName({ role }: { role: TeamRole }) {
  const { names } = useRoleTexts();
  return <span className="team-role">{names[role]}</span>;
}
