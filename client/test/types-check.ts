// Compiled by `tsc --noEmit -p client/tsconfig.json`: uses every export the
// way spec 3 documents it, so a declaration that drifts from the spec fails.
import {
  createEngine, loadPacks, loadCustomPack, assertPack, isCustomPack, PACK_FORMAT, PACK_FORMAT_VERSION, FIELDS, DEFAULT_WEIGHTS, ROW_INDEX,
  CUSTOM_ID_PREFIX, createSearchSession, createSemanticClient, createShardProvider, createLayeredSemantic, chainProviders, shardKeyFor,
  shouldUseSemantic, fuse, semanticConfidence, fuseResults, DEFAULT_SEMANTIC_CALIBRATION, normalize, tokenize, MAX_QUERY_LENGTH,
  embeddingText, applySkinTone, SKIN_TONES, baseId, groupLabel, hexcodeOf, boundedEditDistance, COMMON_REACTIONS, loadCulture,
  assertCulture, CULTURE_FORMAT, CULTURE_FORMAT_VERSION, relevantNow, matchRegionalLead, matchCulture, insertCulture, applyCulture,
  isActiveOn, localDay, deviceRegion, regionOf, EMOJI_SETS, isEmojiSet, emojiImageUrl, decodeVectors, encodeVectors, l2normalize,
  searchVectors, searchVectorSets, type AliasEngine, type Pack, type SessionState, type CanonicalSearchOutput, type AliasResult,
  LOCALES, packLocale, needsMeaning, DEFAULT_SESSION_CALIBRATION, type ResultItem, type SkinTone, type PackLocale,
} from '@emojisearch/client'

async function main(): Promise<void> {
  const packs: Pack[] = await loadPacks({ baseUrl: 'https://x/v1/pack/v', locales: ['en', 'fr'], part: 'core' })
  const noIndex: AliasEngine = createEngine(await loadPacks({ baseUrl: 'https://x/v1/pack/v', index: false }))
  const custom = await loadCustomPack({ endpoint: 'https://x', key: 'pk', tenant: 'acme' })
  const scope: string | null = custom.tenant, image: number = custom.rowIndex.imageUrl
  const engine: AliasEngine = createEngine([...packs, custom], { minCoverage: 0.34 })
  const fromIndex: AliasEngine = createEngine([packs[0], new Uint8Array(8), new ArrayBuffer(8)])
  const canonical: CanonicalSearchOutput = engine.search('cat', { culture: false, limit: 5 })
  const first: AliasResult | undefined = canonical.results[0]
  const out = engine.search('cat', { locale: 'fr', prefix: true, region: 'FR', now: Date.now(), day: '2027-01-01' })
  const culture = await loadCulture({ baseUrl: 'https://x/v1/culture/v', locale: 'fr' })
  const withC = engine.withCulture(assertCulture(culture))
  const n: number = withC.entries.length + withC.locales.length + withC.packVersion.length + (withC.culture ? 1 : 0)
  const semantic = createLayeredSemantic({ shardsUrl: 'https://x/p/v', endpoint: 'https://x', key: 'pk', packVersion: engine.packVersion })
  const chain = chainProviders(createShardProvider({ baseUrl: 'https://x/p/v' }), createSemanticClient({ endpoint: 'https://x', cacheSize: 10, overLimitCooldownMs: 1000 }))
  const session = createSearchSession({
    engine, semantic: semantic ?? chain, locale: 'fr', limit: 24, debounceMs: 200, shouldUseSemantic, culture: false, region: 'FR',
    onChange: (s: SessionState) => void [s.status, s.aliasMs, s.semanticMs, s.semanticCached, s.layer, s.results.length],
  })
  session.update('ca')
  // Results are a union keyed on source: each member's fields without casts.
  const describe = (r: ResultItem): string => (r.source === 'alias' || r.source === 'custom' ? r.label + r.field : r.source === 'culture' ? r.context : r.label ?? r.emoji)
  createSearchSession({ engine, shouldUseSemantic: (a) => needsMeaning(a, DEFAULT_SESSION_CALIBRATION), onChange: (s) => void s.results.map(describe) })
  const tone: SkinTone = SKIN_TONES[3]
  const toned: string = applySkinTone('👋', tone) + applySkinTone('👋', SKIN_TONES[0]) + applySkinTone('👋', 5)
  // @ts-expect-error a tone is 0..5 or a modifier
  applySkinTone('👋', 9)
  const loc: PackLocale = packLocale('pt-BR')
  void [toned, loc, LOCALES[0]]
  session.dispose()
  const fused = fuse(canonical, [{ id: '1F600', cosine: 0.5 }], 10, DEFAULT_SEMANTIC_CALIBRATION)
  const rrf = fuseResults(canonical, [{ id: '1F600', score: 0.5 }], { k: 60, pinScore: 0.9 })
  const conf: number = semanticConfidence([{ id: '1F600', cosine: 0.5 }])
  const strs: string[] = [normalize('Café', MAX_QUERY_LENGTH), ...tokenize('a b'), embeddingText('x'), applySkinTone('👋', 2), SKIN_TONES[1], baseId('1F44B-1F3FB'),
    groupLabel(0, 'fr', engine), hexcodeOf('👋'), COMMON_REACTIONS[0], CULTURE_FORMAT, localDay(new Date()), deviceRegion() ?? '', regionOf('en-GB') ?? '',
    emojiImageUrl('👋', { endpoint: 'https://x', emojiSet: EMOJI_SETS[1] }) ?? '', shardKeyFor(['a'], 'q') ?? '', PACK_FORMAT, CUSTOM_ID_PREFIX, FIELDS[0]]
  const feat = relevantNow(culture, { region: 'FR', limit: 3 })
  const lead = matchRegionalLead(culture, 'football', '1F3C8', { region: 'GB' })
  const all = applyCulture(culture, 'cat', insertCulture(canonical.results, matchCulture(culture, 'cat')), { limit: 10 })
  const vx = decodeVectors(encodeVectors('toy@2', ['A'], [[1, 0]]))
  const ms = searchVectorSets([vx, searchVectors(vx, l2normalize([1, 0]), 1).length ? vx : undefined], [1, 0], 3)
  void [noIndex.packVersion, first, out, n, fused, rrf, conf, strs, feat, lead, all, ms, engine.get('1F600')?.labels, isEmojiSet('noto'), isCustomPack(custom), scope, image,
    assertPack(packs[0]), PACK_FORMAT_VERSION, DEFAULT_WEIGHTS.name, ROW_INDEX.id, CULTURE_FORMAT_VERSION, boundedEditDistance('a', 'b', 1),
    isActiveOn({ kind: 'lasting' }, '2027-01-01')]
}
void main
