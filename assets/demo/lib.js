// The library as the demo imports it: the package root under /client/.
export * from '/client/index.js'
export const LOCALES_FOR_DEMO = ['en', 'zh', 'hi', 'es', 'ar', 'fr', 'bn', 'pt', 'ru', 'id', 'tr']
