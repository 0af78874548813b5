// Tailwind v4 runs as a PostCSS plugin; no tailwind.config is needed.
const config = {
  plugins: { "@tailwindcss/postcss": {} },
};
export default config;
