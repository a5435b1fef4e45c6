/*
 * The only importer of emoji-picker-react. Loaded with React.lazy the first time the picker is
 * opened, so the library and its dataset stay out of every other chunk. Native glyphs: no CDN
 * images. The picker keeps its recently used list in localStorage under `epr_suggested` itself.
 */
import EmojiPicker, { EmojiStyle, type EmojiClickData } from 'emoji-picker-react';

export default function EmojiPickerPanel({ onPick }: { onPick: (emoji: string) => void }) {
  return (
    <EmojiPicker
      emojiStyle={EmojiStyle.NATIVE}
      onEmojiClick={(data: EmojiClickData) => onPick(data.emoji)}
      width="100%"
      height="100%"
      lazyLoadEmojis
    />
  );
}
