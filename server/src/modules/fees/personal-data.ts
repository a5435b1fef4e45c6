import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** The fee settings' lines in the personal-data map: a setting only names the administrator who made it. */
export const feesPersonalData: PersonalDataDeclaration = {
  tables: [
    { table: 'platform_fee_settings', onErase: 'anonymise', about: 'Platform fee settings; only the admin who set one is named, so none is exported.', subject: {}, otherUsers: { created_by: 'withheld' }, personal: {} },
    { table: 'event_fee_overrides', onErase: 'anonymise', about: "An event's fee override; only the admin who set it is named, so none is exported.", subject: {}, otherUsers: { created_by: 'withheld' }, personal: {} },
  ],
};
