package reactions

// Intent is what a message does or feels, as far as reactions go: the
// reason a person taps one emoji rather than another under it.
type Intent uint8

// The intents. Spec 1 names thanks, congratulations, condolences, laughter
// and agreement; the others are the moods people answer with a face.
const (
	Thanks Intent = iota + 1
	Congrats
	Condolence
	Laughter
	Agreement
	Love
	Joy
	Sadness
	Anger
	Fear
	Surprise
	Disgust
	Greeting
	Apology
	Hype
	Tired
	Question
	Hope
	Compliment
	GetWell
	numIntents
)

var intentNames = [numIntents]string{"", "thanks", "congrats", "condolence", "laughter", "agreement", "love", "joy",
	"sadness", "anger", "fear", "surprise", "disgust", "greeting", "apology", "hype", "tired", "question", "hope",
	"compliment", "get-well"}

func (i Intent) String() string {
	if i < numIntents {
		return intentNames[i]
	}
	return "intent?"
}

// rows are the reactions of each intent, best first: what chat users
// answer such a message with (written by hand as product design, the way
// reaction bars of chat apps are chosen; not fitted on any data set).
var rows = [numIntents][]string{
	Thanks:     {"🙏", "❤️", "🤗", "😊"},
	Congrats:   {"🎉", "🥳", "👏", "🙌", "❤️"},
	Condolence: {"😢", "🙏", "💔", "❤️", "🕊️"},
	Laughter:   {"😂", "🤣", "😆", "💀"},
	Agreement:  {"👍", "💯", "👌", "✅"},
	Love:       {"❤️", "😍", "🥰", "😘", "💕"},
	Joy:        {"😊", "😄", "🥳", "❤️", "✨"},
	Sadness:    {"😢", "😭", "💔", "😞", "🫂"},
	Anger:      {"😡", "😠", "😤", "🤬"},
	Fear:       {"😱", "😨", "😰", "😬"},
	Surprise:   {"😮", "😲", "🤯", "😱", "‼️"},
	Disgust:    {"🤢", "🤮", "😒", "🙄"},
	Greeting:   {"👋", "😊", "❤️"},
	Apology:    {"🙏", "❤️", "🤗", "😔"},
	Hype:       {"🔥", "🙌", "🤩", "💯", "💪"},
	Tired:      {"😴", "🥱", "😩", "🫂"},
	Question:   {"🤔", "👀", "❓"},
	Hope:       {"🤞", "🙏", "✨", "🍀"},
	Compliment: {"😍", "🔥", "✨", "👏", "❤️"},
	GetWell:    {"🙏", "❤️", "💪", "🤒"},
}

// negated maps an intent to what its negation means ("not happy" is sad,
// "not funny" is nothing to laugh at); 0 means the cue is just dropped.
var negated = [numIntents]Intent{Joy: Sadness, Love: 0, Laughter: 0, Agreement: 0, Hype: Sadness, Fear: 0}

// DefaultRow is the reaction bar offered when a message gives no signal,
// and the prior every answer is blended with. It is how people use emoji
// worldwide, kept to one face per feeling in its first five: the most used
// emoji of the Unicode Consortium's frequency ranking (2021) for laughter
// (😂, first of all), love (❤️, second), adoration (😍, ninth), sadness (😢)
// and anger (😡), in that ranking's order, because a message with no signal
// is as likely sad or angry as funny and a bar of five laughing faces
// answers only one of those; then the ranking's next general reactions
// (👍, 🙏), surprise (😮, the one main feeling left) and the next most used
// faces (😭, 🤣). Product design, not fitted on any set.
var DefaultRow = []string{"😂", "❤️", "😍", "😢", "😡", "👍", "🙏", "😮", "😭", "🤣"}

// moodRows reorder the default row when a message's mood is known: a
// cheerful line is answered with hearts and laughter, a sad one with
// sympathy. They keep the default row's five faces, only in another order,
// so the mood alone never drops a face (the mood words are right too
// rarely for that); it decides which face evidence displaces first, the
// one least in line with the mood. Each row's own reactions follow.
var moodRows = map[int][]string{
	+1: {"❤️", "😂", "😍", "😢", "😡", "🔥", "👏", "😊"},
	// A message whose cues are not cheerful (a question, surprise, a
	// mild fear) is answered with anything before adoration: 😍 goes first.
	0:  {"😂", "❤️", "😢", "😡", "😍", "👍", "🙏", "😮", "😭", "🤣"},
	-1: {"😢", "😡", "❤️", "😂", "😍", "🙏", "😮", "🫂"},
}

// faceMood is the feeling of the mood rows' faces that clash with a
// speech act of the other feeling (❤️, 🙏 and 😮 go with either).
var faceMood = map[string]int{"😂": 1, "😍": 1, "🤣": 1, "🔥": 1, "👏": 1, "😊": 1, "👍": 1,
	"😢": -1, "😡": -1, "😭": -1, "🫂": -1}

// mood is the sign of an intent's feeling: positive, negative or neutral.
var mood = [numIntents]int{Thanks: 1, Congrats: 1, Condolence: -1, Laughter: 1, Agreement: 1, Love: 1, Joy: 1,
	Sadness: -1, Anger: -1, Fear: -1, Surprise: 0, Disgust: -1, Greeting: 1, Apology: -1, Hype: 1, Tired: -1,
	Question: 0, Hope: 1, Compliment: 1, GetWell: -1}

// priority weighs intents against each other when one message has several:
// an event (a new job, a death, thanks) decides the reaction more than the
// mood words around it ("got the job!! so happy" is answered with 🎉).
var priority = [numIntents]float64{Thanks: 1.25, Congrats: 1.3, Condolence: 1.3, GetWell: 1.2, Laughter: 1.1, Apology: 1.1}

// act reports whether an intent is a speech act answered by convention
// (thanks with 🙏, congratulations with 🎉, a loss with 😢 and 🙏): the
// three of spec 1's intents a reaction bar exists for; laughter and
// agreement are moods people may or may not share, and an apology or an
// illness is answered in too many ways. A mood must be guessed, so its
// cues are calibrated against how often they are right; an act's
// reactions are not a guess.
func (i Intent) act() bool {
	switch i {
	case Thanks, Congrats, Condolence:
		return true
	}
	return false
}

func (i Intent) priority() float64 {
	if i < numIntents && priority[i] > 0 {
		return priority[i]
	}
	return 1
}
