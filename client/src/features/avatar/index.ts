/* Avatar feature: the /setAvatar picker. Showing an avatar is shared: src/components/avatar-image.tsx. Stylesheet: ./avatar.css. */
export { AvatarPicker } from './components/avatar-picker';
