import { MAX_MESSAGE_LENGTH } from '@tukio/shared/limits';
import { lazy, Suspense, useId, useRef, useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n';
import { SendIcon, SmileIcon } from './icons';

// Fetched the first time the picker opens; nothing else imports emoji-picker-react.
const EmojiPickerPanel = lazy(() => import('./emoji-picker-panel'));

/** Message input with an emoji picker. Enter (or the Send button) sends non-empty text, then clears the input. */
export function Composer({
  contactName,
  onSend,
  inputRef,
}: {
  contactName: string;
  onSend: (text: string) => boolean;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const t = useT();
  const [text, setText] = useState('');
  const [pickerOpen, setPickerOpen] = useState(false);
  const inputId = useId();
  const pickerId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (text.trim() === '') return;
    if (onSend(text)) {
      setText('');
      setPickerOpen(false);
    }
  };

  const closePicker = () => {
    setPickerOpen(false);
    toggleRef.current?.focus();
  };

  const handlePickerKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape' && !event.defaultPrevented) {
      event.stopPropagation();
      closePicker();
    }
  };

  const canSend = text.trim() !== '';

  return (
    <form className="chat-composer" onSubmit={handleSubmit}>
      {pickerOpen ? (
        <div className="chat-emoji" id={pickerId} onKeyDown={handlePickerKey}>
          <Suspense
            fallback={
              <p className="chat-emoji__loading" role="status">
                <Spinner /> {t('chat.loadingEmojis')}
              </p>
            }
          >
            <EmojiPickerPanel onPick={(emoji) => setText((current) => (current + emoji).slice(0, MAX_MESSAGE_LENGTH))} />
          </Suspense>
        </div>
      ) : null}
      <button
        ref={toggleRef}
        type="button"
        className="chat-composer__icon"
        aria-label={t('chat.emojiPicker')}
        aria-expanded={pickerOpen}
        aria-controls={pickerOpen ? pickerId : undefined}
        onClick={() => setPickerOpen((open) => !open)}
      >
        <SmileIcon />
      </button>
      <label htmlFor={inputId} className="visually-hidden">
        {t('chat.messageTo', { username: contactName })}
      </label>
      <input
        ref={inputRef}
        id={inputId}
        className="chat-composer__input"
        type="text"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t('chat.typeMessage')}
        maxLength={MAX_MESSAGE_LENGTH}
        autoComplete="off"
        enterKeyHint="send"
      />
      <button type="submit" className="chat-composer__send" aria-label={t('chat.sendMessage')} disabled={!canSend}>
        <SendIcon />
      </button>
    </form>
  );
}
