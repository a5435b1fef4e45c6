import { useId, useSyncExternalStore } from 'react';
import { useSession } from '../../../hooks/use-session';
import { isLanguage, LANGUAGES, useLanguage, useT, type Language } from '../../../lib/i18n';

/** Each language named in itself, so a reader finds theirs whatever the page is in. */
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', sw: 'Kiswahili' };

const noChanges = () => () => undefined;

/**
 * The header's language choice: a native select (keyboard and screen readers know it), labelled in
 * both languages so it can be found from either. The choice is kept on the device and the account.
 */
export function LanguageSwitch() {
  const { language, setLanguage } = useLanguage();
  const { isLoggedIn, user } = useSession();
  const t = useT();

  const choose = (next: Language) => {
    void setLanguage(next);
    // The account keeps it too (its mail and SMS); the API client loads only now, off the first load.
    if (isLoggedIn && user) {
      void import('../../../lib/i18n/account-language')
        .then(({ saveAccountLanguage }) => saveAccountLanguage(user._id, next))
        .catch((error: unknown) => console.warn('The language could not be saved on the account', error));
    }
  };
  const id = useId();
  // The server's HTML shows the switch disabled: until the app has rendered, a choice made there would be lost
  // (the first render replaces the server's markup). The browser's render enables it.
  const rendered = useSyncExternalStore(noChanges, () => true, () => false);
  const otherLabel = language === 'sw' ? 'Language' : 'Lugha';
  return (
    <div className="language-switch">
      <label htmlFor={id} className="visually-hidden">
        {t('layout.language')} <span lang={language === 'sw' ? 'en' : 'sw'}>({otherLabel})</span>
      </label>
      <select
        id={id}
        className="language-switch__select"
        value={language}
        disabled={!rendered}
        onChange={(event) => {
          if (isLanguage(event.target.value)) choose(event.target.value);
        }}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
