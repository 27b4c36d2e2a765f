// Renders /openapi.json. Try-it calls go to this origin (the document's
// server is "/"), without Scalar's proxy; its web fonts are not fetched.
// The light theme's muted text and method colours are darkened to reach
// WCAG AA contrast (4.5:1), which axe checks in TestDocsBrowser.
Scalar.createApiReference('#app', {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  documentDownloadType: 'json',
  showDeveloperTools: 'never',
  customCss: `.light-mode {
    --scalar-color-2: #4d4d4d;
    --scalar-color-3: #595959;
    --scalar-color-green: #006b3c;
    --scalar-color-blue: #0b57a4;
    --scalar-color-orange: #9a4400;
    --scalar-color-red: #b0261c;
    --scalar-color-purple: #6a32ad;
    --scalar-color-yellow: #735600;
    --scalar-color-accent: #0b57a4;
  }`,
})
