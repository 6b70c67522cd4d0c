// Vite's `?raw` imports: a file's text as a string (the darktable example's files).
declare module '*?raw' {
  const text: string;
  export default text;
}
