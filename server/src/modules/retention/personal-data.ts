import type { PersonalDataDeclaration } from '../../lib/personal-data.js';

/** The retention module's table in the personal-data map: which events were erased; it only names the admin who did. */
export const retentionPersonalData: PersonalDataDeclaration = {
  tables: [{ table: 'event_shreds', onErase: 'anonymise', about: "Events whose buyers' details were erased; only the admin who did it early is named, so none is exported.", subject: {}, otherUsers: { shredded_by: 'withheld' }, personal: {} }],
};
