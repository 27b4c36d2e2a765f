package reactions

// Vocabulary is the curated reaction vocabulary: emoji people tap under a
// message, each with what it means as a reaction. Emoji of this list are
// reactions and may be offered on one signal; any other emoji is topical
// and needs two signals or a very close embedding (spec 1). The message
// embedding ranks these emoji (their rows in the served vector files);
// Meaning documents the choice and is what a reader checks a row against.
var Vocabulary = []struct {
	Emoji   string
	Meaning string
}{
	{"❤️", "love, support, warm agreement"},
	{"😂", "that is very funny"},
	{"🤣", "rolling on the floor laughing"},
	{"😆", "laughing hard"},
	{"💀", "dead from laughing"},
	{"👍", "ok, agreed, good"},
	{"👌", "perfect, fine"},
	{"💯", "absolutely, one hundred percent"},
	{"✅", "done, confirmed"},
	{"😮", "surprised, wow"},
	{"😲", "astonished"},
	{"🤯", "mind blown"},
	{"‼️", "emphatic surprise"},
	{"😢", "sad, sorry to hear"},
	{"😭", "crying, very sad or very moved"},
	{"💔", "heartbroken"},
	{"😞", "disappointed"},
	{"🫂", "a hug, comfort"},
	{"😡", "angry"},
	{"😠", "annoyed"},
	{"😤", "frustrated, huffing"},
	{"🤬", "furious, swearing"},
	{"😱", "screaming in fear or shock"},
	{"😨", "fearful"},
	{"😰", "anxious, worried"},
	{"😬", "awkward, nervous"},
	{"🤢", "disgusted, sick"},
	{"🤮", "gross"},
	{"😒", "unamused"},
	{"🙄", "eye roll"},
	{"🙏", "thanks, please, praying"},
	{"🤗", "hug, you are welcome"},
	{"😊", "pleased, smiling"},
	{"😄", "happy, grinning"},
	{"✨", "sparkle, magic, nice"},
	{"🎉", "celebration, congratulations"},
	{"🥳", "party, celebrating"},
	{"👏", "applause, well done"},
	{"🙌", "hooray, praise"},
	{"🕊️", "peace, rest in peace"},
	{"😍", "adoring, beautiful"},
	{"🥰", "loving, affectionate"},
	{"😘", "a kiss"},
	{"💕", "love, affection"},
	{"👋", "hello, goodbye"},
	{"😔", "pensive, remorseful"},
	{"🔥", "fire, hot, amazing"},
	{"🤩", "star struck, excited"},
	{"💪", "strength, you can do it"},
	{"😴", "sleepy"},
	{"🥱", "yawning, bored, tired"},
	{"😩", "weary, exhausted"},
	{"🤔", "thinking, doubtful"},
	{"👀", "eyes, watching, curious"},
	{"❓", "question"},
	{"🤞", "fingers crossed, hope"},
	{"🍀", "good luck"},
	{"🤒", "ill, get well"},
	{"😅", "relieved, nervous laugh"},
	{"🥺", "pleading, touched"},
	{"😳", "flushed, embarrassed"},
	{"🤷", "shrug, who knows"},
	{"😎", "cool"},
	{"🙈", "embarrassed, see no evil"},
	{"🤝", "deal, handshake"},
	{"🫡", "salute, respect"},
}

// vocab holds Vocabulary by emoji key (see key) with each emoji's order.
var vocab = func() map[string]int {
	m := make(map[string]int, len(Vocabulary))
	for i, v := range Vocabulary {
		m[key(v.Emoji)] = i
	}
	return m
}()

// IsReaction reports whether an emoji belongs to the reaction vocabulary.
func IsReaction(emoji string) bool {
	_, ok := vocab[key(emoji)]
	return ok
}
