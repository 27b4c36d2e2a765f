package packfmt

// The custom pack (GET /v1/custom-pack, spec 1; loadCustomPack, spec 3): a
// pack of part PartCustom whose row ids start with CustomIDPrefix and
// whose rows carry one more column, the image address, at ColImageURL
// (named "imageUrl" in the pack's rowIndex). packs/FORMAT.md describes it.
const (
	PartCustom     = "custom"
	CustomIDPrefix = "C-"
	ColImageURL    = NumCols
	// CustomLayout is the custom pack's layout version, part of its edge
	// cache key: a change of the layout never serves older entries.
	CustomLayout = 1
)
