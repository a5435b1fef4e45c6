/*
 * The only importer of emoji-picker-react. Loaded with React.lazy the first time the picker is
 * opened, so the library and its dataset stay out of every other chunk. Native glyphs: no CDN
 * images. The picker keeps its recently used list in localStorage under `epr_suggested` itself.
 * In English the picker keeps its own texts; for a Kiswahili reader its labels and category names
 * come from the chat catalog (emoji search still matches the emojis' English names).
 */
import EmojiPicker, { Categories, EmojiStyle, type EmojiClickData } from 'emoji-picker-react';
import { useLanguage, useT, type Translate } from '../../../lib/i18n';

const CATEGORY_NAMES: ReadonlyArray<[Categories, string]> = [
  [Categories.SUGGESTED, 'chat.emojiSuggested'],
  [Categories.SMILEYS_PEOPLE, 'chat.emojiSmileys'],
  [Categories.ANIMALS_NATURE, 'chat.emojiAnimals'],
  [Categories.FOOD_DRINK, 'chat.emojiFood'],
  [Categories.TRAVEL_PLACES, 'chat.emojiTravel'],
  [Categories.ACTIVITIES, 'chat.emojiActivities'],
  [Categories.OBJECTS, 'chat.emojiObjects'],
  [Categories.SYMBOLS, 'chat.emojiSymbols'],
  [Categories.FLAGS, 'chat.emojiFlags'],
];

function translatedTexts(t: Translate) {
  return {
    categories: CATEGORY_NAMES.map(([category, key]) => ({ category, name: t(key) })),
    previewConfig: { defaultCaption: t('chat.emojiMood') },
    labels: {
      searchPlaceholder: t('chat.emojiSearch'),
      searchLabel: t('chat.emojiSearchLabel'),
      searchResultsNone: t('chat.emojiNoResults'),
      searchResultsOne: t('chat.emojiResultsOne'),
      searchResultsMany: t('chat.emojiResultsMany'),
      categoryNavigation: t('chat.emojiCategoryNavigation'),
      loading: t('chat.emojiLoading'),
      loadingError: t('chat.emojiLoadFailed'),
      retryLoading: t('chat.tryAgain'),
    },
  };
}

export default function EmojiPickerPanel({ onPick }: { onPick: (emoji: string) => void }) {
  const t = useT();
  const { language } = useLanguage();
  return (
    <EmojiPicker
      emojiStyle={EmojiStyle.NATIVE}
      onEmojiClick={(data: EmojiClickData) => onPick(data.emoji)}
      width="100%"
      height="100%"
      lazyLoadEmojis
      {...(language === 'en' ? {} : translatedTexts(t))}
    />
  );
}
