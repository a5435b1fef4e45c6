/** Small decorative logo: a ticket stub in Kenyan flag colours. */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg
      className="brand-mark"
      viewBox="0 0 40 40"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
    >
      <rect x="2" y="6" width="36" height="28" rx="6" fill="#ffffff" />
      <rect x="5" y="9" width="30" height="7" rx="2" fill="#14171a" />
      <rect x="5" y="17" width="30" height="6" fill="#c8102e" />
      <rect x="5" y="24" width="30" height="7" rx="2" fill="#0a7d3e" />
      <circle cx="2" cy="20" r="4" fill="#14171a" />
      <circle cx="38" cy="20" r="4" fill="#14171a" />
    </svg>
  );
}
