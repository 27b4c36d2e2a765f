// Test helpers: the committed packs of the current version, read from disk.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'

export const root = fileURLToPath(new URL('../../', import.meta.url))
export const version = JSON.parse(readFileSync(join(root, 'client/test/goldens.json'), 'utf8')).packVersion
export const packDir = join(root, 'packs/dist', version)
export const LOCALES = ['en', 'zh', 'hi', 'es', 'ar', 'fr', 'bn', 'pt', 'ru', 'id', 'tr']
export const readPack = (name) => JSON.parse(readFileSync(join(packDir, name), 'utf8'))
export const readCulture = (locale) => JSON.parse(readFileSync(join(packDir, 'culture', `culture.${locale}.json`), 'utf8'))
export const readBytes = (name) => readFileSync(join(packDir, name))
export const goldens = () => JSON.parse(readFileSync(join(root, 'client/test/goldens.json'), 'utf8'))
export const hasAssoc = (l) => existsSync(join(packDir, `pack.${l}.assoc.json`))
/** allPacks is every JSON pack of the version: the whole dictionary tier, associations included. */
export const allPacks = () => LOCALES.flatMap((l) => [readPack(`pack.${l}.json`), readPack(`pack.${l}.ext.json`), ...(hasAssoc(l) ? [readPack(`pack.${l}.assoc.json`)] : [])])
/** assocDevices are the association part indexes of the version (what loadPacks part assoc fetches). */
export const assocDevices = () => LOCALES.filter(hasAssoc).map((l) => readBytes(`device.${l}.assoc.bin`))
export const hasCulture = () => readdirSync(join(packDir, 'culture')).length > 0
