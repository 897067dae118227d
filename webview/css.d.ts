// scripts/build.mjs loads .css files as text.
declare module '*.css' {
  const text: string;
  export default text;
}
