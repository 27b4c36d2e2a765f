package packfmt

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
)

// The names and the JSON writing of the files of a pack version live here,
// with the format, so that readers (the engine's tests, the goldens command,
// the worker build) name the committed files without importing the build
// (packs/), which writes them.

// DefaultVersion is the pack version of the current inputs: emojibase 17,
// CLDR 48, build revision 3 (revision 2: related words of the local
// embedding model in the English extension pack, their binary index apart
// from the English one; revision 3: pack format 2 with the editorial phrase
// layer and its part indexes; revisions 4-6: the editorial layer grown and
// the device indexes; revision 7: device index format 3; revision 8: the
// associations, pack.<locale>.assoc.json; revision 9: their part indexes,
// index.<locale>.assoc.bin, out of index.<locale>.bin). Bump the revision
// when the build's output changes: published packs are immutable.
const DefaultVersion = "e17c48r9"

// IndexFile is the name of a locale's binary index: index.<locale>.bin.
func IndexFile(locale string) string { return "index." + locale + ".bin" }

// CoreIndexFile is the binary index of the English core pack alone
// (index.en.core.bin): the same phrases as pack.en.json, so the JS client
// reads it in place beside that pack instead of indexing the pack's phrases
// (spec 3, loadPacks). A main index (its meta names no part), not a part
// index; the Worker does not read it.
const CoreIndexFile = "index.en.core.bin"

// DeviceIndexFile is the JS client's default index of a locale
// (device.<locale>.bin, packs/FORMAT.md "Device index"): the locale's core,
// extension (without the related words) and editorial phrases in one main
// index, re-encoded compactly for download. The Worker does not read it.
func DeviceIndexFile(locale string) string { return "device." + locale + ".bin" }

// AssocPackFile is a locale's associations as an extension pack
// (pack.<locale>.assoc.json, packs/FORMAT.md "Associations"): what people
// type for an emoji beyond its dictionary names, the words no other phrase
// of the emoji has. The locale's binary index holds them; its device index
// does not (the client loads them on request).
func AssocPackFile(locale string) string { return "pack." + locale + ".assoc.json" }

// PackFiles names a locale's JSON packs in dir (a pack version's folder)
// in load order: the core pack, the extension pack and, when the build
// wrote it, the associations (AssocPackFile). Together they are the
// locale's whole dictionary, as its binary index and editorial part index
// hold it.
func PackFiles(dir fs.FS, locale string) []string {
	names := []string{"pack." + locale + ".json", "pack." + locale + ".ext.json"}
	if a := AssocPackFile(locale); fileExists(dir, a) {
		names = append(names, a)
	}
	return names
}

func fileExists(dir fs.FS, name string) bool {
	_, err := fs.Stat(dir, name)
	return err == nil
}

// AssocPart names the associations (AssocPackFile) as a part: the part
// index index.<locale>.assoc.bin, which the service adds to the locale's
// engine, and the part of its device index device.<locale>.assoc.bin, which
// the JS client adds beside device.<locale>.bin (DevicePartFile).
const AssocPart = "assoc"

// DevicePartFile is the name of a part of a locale's device index:
// device.<locale>.<part>.bin, a part index re-encoded as the device index
// is, holding only that part's phrases.
func DevicePartFile(locale, part string) string { return "device." + locale + "." + part + ".bin" }

// RelatedPart names the part index of the English related words; the
// engine scores its phrases as weak ones only.
const RelatedPart = "related"

// EditorialPart names the part indexes of the editorial phrases,
// index.<locale>.editorial.bin.
const EditorialPart = "editorial"

// PartIndexFile is the name of a part index of a locale:
// index.<locale>.<part>.bin.
func PartIndexFile(locale, part string) string { return "index." + locale + "." + part + ".bin" }

// RelatedIndexFile is the binary index of the related words of the English
// extension pack (index.en.related.bin); index.en.bin leaves them out, so
// the English index built into the Worker stays small.
var RelatedIndexFile = PartIndexFile("en", RelatedPart)

// WritePack streams a pack as JSON: the header members, then one row per line.
func WritePack(w io.Writer, p *Pack) error {
	rows := p.Rows
	hdr := *p
	hdr.Rows = nil
	b, err := json.Marshal(hdr)
	if err != nil {
		return err
	}
	// b ends with `"rows":null}`; reopen it as an array.
	b = bytes.TrimSuffix(b, []byte(`null}`))
	if _, err := w.Write(append(b, "[\n"...)); err != nil {
		return err
	}
	for i, r := range rows {
		rb, err := r.MarshalJSON()
		if err != nil {
			return err
		}
		if i < len(rows)-1 {
			rb = append(rb, ',')
		}
		if _, err := w.Write(append(rb, '\n')); err != nil {
			return err
		}
	}
	_, err = io.WriteString(w, "]}\n")
	return err
}
