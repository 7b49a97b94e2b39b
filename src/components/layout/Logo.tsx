/** The Terrain mark: a hill under the sun, on the ground line. Decorative wherever the name is written beside it. */
export function Logo({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" className={className} aria-hidden focusable="false">
      <rect width="64" height="64" rx="14" fill="#1f5130" />
      <path d="M8 48 26 22l9 12 6-7 15 21Z" fill="#d9f0c9" />
      <path d="M8 48h48" stroke="#f2c14e" strokeWidth="4" strokeLinecap="round" />
      <circle cx="46" cy="17" r="5" fill="#f2c14e" />
    </svg>
  );
}
