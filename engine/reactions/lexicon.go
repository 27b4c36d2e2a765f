package reactions

// lexTable is the broad emotion lexicon: everyday emotion words per
// language, grouped by Plutchik's eight emotions (joy, trust, fear,
// surprise, sadness, disgust, anger, anticipation) plus love and laughter,
// written by hand as product content from general knowledge of each
// language (not taken from any data set or published lexicon). Where the
// cue table holds what a message does (thanks, congratulations), this table
// holds how it feels, so the mood of a line that names no intent still
// turns the row: "what a miserable night" is answered with 😢, "you liar"
// with 😠. Trust maps to Love and Agreement, anticipation to Hope and
// Hype. Same syntax as cueTable: "*" ends a prefix.
var lexTable = []struct {
	lang   string
	intent Intent
	cues   string
}{
	{"en", Joy, "joy*|joyful|happiness|cheer*|delight*|pleas*|smil*|laugh|celebrat*|wonderful|fantastic|great|excellent|perfect|brilliant|beautiful|nice|fine|good|best|better|win|won|winner|victory|success*|free|fun|enjoy*|party|thrill*|ecstatic|grin*|relie*|satisf*|proud|pride|bliss*|paradise|sunshine|treasure|gift|dance|danc*|sing|song|lucky|fortunate|gorgeous|magnificent|marvel*|superb|terrific|yes|hooray|hurray|woohoo|glad*|merry|sweet|peace*|calm|comfort*|content|amaz*|incredible|awesome|cool|brave"},
	{"en", Love, "darling|honey|dear|sweetie|baby|kiss|hug*|romance|romantic|marry|married|marriage|wedding|heart|hearts|tender*|cherish*|affection*|beloved|lover|girlfriend|boyfriend|wife|husband|together|forever|friend*|mom|mother|dad|father|trust*|faith*|loyal*|honest*|believe|promise*|caring|safe|protect*|support*|rely|respect*|sincere*|truth|truly|devot*|kind|kindness|generous|family"},
	{"en", Agreement, "certain*|indeed|correct|agreed|understood|alright|all right|got it|i see|fine by me|will do|promise"},
	{"en", Sadness, "sorrow*|grief|griev*|mourn*|weep*|wept|tear|sob*|misery|miserable|pain|painful|hurt*|suffer*|lost|lose|losing|loss|alone|empty|broken|gloom*|despair*|hopeless*|regret*|poor|unfortunate*|tragic|tragedy|dead|death|die|dying|kill*|grave|funeral|goodbye|farewell|leave me|left me|abandon*|sick|ill|cancer|failure|fail*|wrong|bad|awful|terrible|horrible|worse|worst|pity|shame|ashamed|guilt*|sorry|melanchol*|weary|sigh|alas|poverty|war|victim*"},
	{"en", Anger, "anger|rage|fury|outrage*|hostil*|resent*|bitter*|irritat*|frustrat*|livid|enrag*|hell|bloody|bastard|jerk|liar|lying|cheat*|betray*|fight*|punch*|slap*|destroy*|revenge|enemy|enemies|threat*|blame*|insult*|offend*|rude|unfair|injustice|shout*|yell*|scream at|how dare|dare you|get out|shut it|leave me alone|fuck*|shit|crap|screw you|dumb|fool|moron|useless|pathetic|disgrace*|stop it|enough|sick and tired|kill you|piss off|damn it|goddamn"},
	{"en", Fear, "fright*|horror|horrif*|terror*|dread*|alarm*|danger*|risk*|threat|unsafe|spooky|haunt*|ghost*|monster*|nightmare*|shak*|trembl*|tense|stress*|worry|worries|uneasy|insecure|timid|coward*|hide|hiding|escape|flee|trap*|attack*|gun|weapon|bomb|murder*|blood|dark|darkness|storm|emergency|careful|watch out|look out|beware|help|police|lost|missing|what if"},
	{"en", Surprise, "suddenly|sudden|unexpect*|astonish*|amaz*|stun*|startl*|speechless|incredibl*|believe it|oh my god|oh my|oh no|gosh|jeez|holy|whoa|wait|huh|really|indeed|strange|weird|odd|bizarre|mysterious|mystery|secret|reveal*|discover*|found out|turns out|never thought|who knew|impossible|miracle"},
	{"en", Disgust, "disgust*|revolt*|repuls*|vile|filth*|dirty|stink*|smell*|rotten|rot|vomit*|puke|barf|sick|slimy|ugly|hideous|creep|pervert*|sleaz*|shameful|despicable|contempt*|loath*|abhor*|sickening|toilet|garbage|trash|worm*|rat|rats|pig|pigs|scum|trash|appall*|horrid|offensive"},
	{"en", Hope, "plan*|ready|prepar*|wait for|waiting|expect*|anticipat*|look forward|looking forward|someday|one day|chance|maybe|perhaps|dream*|goal|wish|about to|almost|finally|start*|begin*|adventure|journey|arriv*|countdown"},
	{"en", Laughter, "laughing|laughed|lmfao|lmao|hahah*|joking|kidding|funniest|comedy|comic|silly|ridiculous|clown*|prank*|giggl*|chuckl*"},

	{"es", Joy, "alegria|felicidad|feliz*|content*|encant*|disfrut*|divert*|fiesta|celebr*|ganar|gane|gano|exito|perfecto|excelente|fantastic*|maravill*|precios*|hermos*|bonit*|lindo|linda|bueno|buena|mejor|sonr*|ri|reir|bail*|cant*|suerte|afortunad*|orgull*|tranquil*|paz|estupend*|increible|bien|genial|si"},
	{"es", Love, "amor|amo|ama|amar|quiero|querid*|carino|besa*|beso*|abraz*|corazon|novi*|espos*|boda|casar*|juntos|siempre|amig*|familia|madre|padre|mama|papa|confi*|fiel|leal*|creo en|promet*|cuid*|protej*|respet*|sincer*|verdad|hijo|hija"},
	{"es", Sadness, "tristeza|triste*|pena|dolor|duele|llor*|lagrim*|sufr*|perd*|solo|sola|soledad|vacio|roto|rota|desesper*|lament*|arrepient*|pobre|tragedia|tragic*|muert*|muer*|mori*|funeral|adios|abandon*|enferm*|fracas*|mal|malo|mala|terrible|horrible|peor|lastima|verguenza|culpa*|melancol*|extran*|echo de menos"},
	{"es", Anger, "ira|enojo|enoj*|enfad*|furia|furios*|rabi*|odi*|molest*|irrit*|frustr*|maldit*|demonios|diablos|infierno|cabron*|bastardo|mentiros*|mentir*|mientes|trampa|traicion*|pelea*|golpe*|destru*|venganza|enemig*|amenaz*|culp*|insult*|grosero|injust*|grit*|como te atreves|largate|callate|basta|cállate|estupido|estupida|imbecil|idiota|puta|joder|carajo|mierda|hijo de puta"},
	{"es", Fear, "miedo|temor|tem*|asust*|aterr*|horror|terror|peligr*|riesgo|amenaza|fantasma*|monstruo*|pesadilla*|tembl*|nervios*|preocup*|ansie*|escond*|corre|corran|escap*|huy*|trampa|ataque|arma|pistola|bomba|asesin*|sangre|oscur*|emergencia|cuidado|ayuda|socorro|policia|rapido"},
	{"es", Surprise, "de repente|sorpre*|inesperad*|asombr*|increibl*|dios mio|vaya|caramba|oh no|en serio|de verdad|raro|rara|extran*|misterio*|secreto|descubr*|imposible|milagro|no puede ser"},
	{"es", Disgust, "asco*|asquer*|repugn*|sucio|sucia|apest*|huele|podrid*|vomit*|feo|fea|horrend*|cerdo|basura|rata|despreci*|nausea*|vil"},
	{"es", Hope, "espero|esper*|ojala|plan*|listo|lista|prepar*|sueno|suen*|meta|quizas|tal vez|por fin|empez*|comenz*|aventura|viaje|llega*|vamos a"},

	{"fr", Joy, "joie|heureu*|content*|ravi*|plaisir|amus*|fete|celebr*|gagn*|succes|reussi*|parfait*|excellent*|fantastique|merveill*|magnifique|beau|belle|bon|bonne|mieux|meilleur*|sourir*|rire|ri|dans*|chant*|chance|fier*|fiere|calme|paix|genial|super|bien|oui|formidable|extra"},
	{"fr", Love, "amour|aime|aimer|aimes|cheri*|bisou*|embrass*|calin*|coeur|copain|copine|femme|mari|mariage|marier|ensemble|toujours|ami|amie|amis|famille|maman|papa|mere|pere|confiance|confi*|fidel*|loyal*|crois en|promet*|promis|protege*|respect*|sincere*|verite|fils|fille"},
	{"fr", Sadness, "tristesse|triste*|peine|douleur|mal|pleur*|larme*|souffr*|perdu*|perdre|seul|seule|solitude|vide|brise*|desespoir|desesper*|regret*|pauvre|tragedie|tragique|mort|morte|mourir|meurt|enterrement|adieu|abandonn*|malade|echec|echoue*|mauvais*|terrible|horrible|pire|dommage|honte|coupable|melancol*|manque"},
	{"fr", Anger, "colere|enerv*|furieu*|rage|haine|hai*|deteste*|agace*|irrit*|frustr*|putain|merde|salaud|salope|connard|conne|menteur*|mensonge*|ment|trahi*|battre|bagarre|frapp*|detrui*|vengeance|ennemi*|menac*|insult*|injuste|cri*|hurl*|comment oses|degage|tais toi|ferme la|ca suffit|assez|idiot*|imbecile|cretin*|foutu*|bordel"},
	{"fr", Fear, "peur|effray*|terrifi*|terreur|horreur|danger*|risque*|menace|fantome*|monstre*|cauchemar*|trembl*|nerveu*|inquiet*|angoiss*|stress*|cache*|cours|fuir|fuy*|echapp*|piege*|attaque*|arme|fusil|bombe|meurtr*|tuer|sang|sombre|noir|urgence|attention|au secours|aide*|police|vite"},
	{"fr", Surprise, "soudain*|surpri*|inattendu*|etonn*|incroyabl*|mon dieu|oh non|vraiment|serieusement|bizarre|etrange|mystere*|secret|decouv*|impossible|miracle|ca alors|pas possible"},
	{"fr", Disgust, "degout*|degueu*|repugn*|sale|puant*|pue|pourri*|vomi*|moche|laid*|horrible|porc|cochon|ordure*|rat|mepris*|ecoeur*|immonde|ignoble|beurk"},
	{"fr", Hope, "espere*|espoir|plan*|pret|prete|prepar*|reve*|but|peut etre|enfin|commenc*|aventure|voyage|arriv*|on va"},

	{"pt", Joy, "alegria|feliz*|content*|encant*|divert*|festa|celebr*|ganh*|sucesso|perfeito|excelente|fantastic*|maravilh*|lind*|bonit*|bom|boa|melhor|sorri*|ri|rir|danc*|cant*|sorte|orgulh*|calm*|paz|otimo|incrivel|legal|sim|bem|demais"},
	{"pt", Love, "amor|amo|ama|amar|quero|querid*|carinho|beij*|abrac*|coracao|namorad*|espos*|casamento|casar|juntos|sempre|amig*|familia|mae|pai|confi*|fiel|leal*|acredito|promet*|cuid*|proteg*|respeit*|sincer*|verdade|filho|filha"},
	{"pt", Sadness, "tristeza|triste*|pena|dor|doi|chor*|lagrima*|sofr*|perd*|sozinh*|solidao|vazio|quebrad*|desesper*|lament*|arrepend*|pobre|tragedia|tragic*|mort*|morr*|funeral|adeus|abandon*|doente|fracass*|mal|mau|ma|terrivel|horrivel|pior|vergonha|culpa*|saudade*|falta"},
	{"pt", Anger, "raiva|irrit*|furi*|odi*|odeio|chat*|frustr*|maldit*|droga|diabo|inferno|desgracad*|mentiros*|mentir*|mente|trai*|brig*|bat*|destru*|vinganca|inimig*|ameac*|culp*|insult*|injust*|grit*|como se atreve|cala a boca|cale a boca|chega|basta|idiota|imbecil|estupid*|merda|porra|caralho|filho da puta|puta"},
	{"pt", Fear, "medo|temo|assust*|apavor*|horror|terror|perig*|risco|ameaca|fantasma*|monstro*|pesadelo*|trem*|nervos*|preocup*|ansie*|escond*|corr*|fug*|escap*|armadilha|ataque|arma|bomba|assassin*|sangue|escur*|emergencia|cuidado|socorro|ajuda|policia|rapido"},
	{"pt", Surprise, "de repente|surpres*|inesperad*|espant*|incrivel|meu deus|nossa|serio|estranh*|misteri*|segredo|descobr*|impossivel|milagre|caramba|uau"},
	{"pt", Disgust, "nojo|nojent*|repugn*|suj*|fedor*|fede|podre|vomit*|feio|feia|porco|lixo|rato|desprez*|asqueros*"},
	{"pt", Hope, "espero|esper*|tomara|plano*|pront*|prepar*|sonh*|meta|talvez|finalmente|comec*|aventura|viagem|cheg*|vamos"},

	{"de", Joy, "freude|froh|glucklich|gluck|frohlich|spass|feier*|gewinn*|gewonnen|erfolg*|perfekt|ausgezeichnet|fantastisch|wunderbar|wunderschon|schon|gut|besser|beste*|lachel*|lachen|tanz*|sing*|stolz|ruhig|frieden|super|toll|klasse|prima|herrlich|ja"},
	{"de", Love, "liebe|lieb*|schatz|liebling|kuss|kuss*|umarm*|herz|freund*|frau|mann|hochzeit|heirat*|zusammen|immer|familie|mutter|mama|vater|papa|vertrau*|treu*|glaub*|versprech*|versproch*|schutz*|respekt*|ehrlich*|wahrheit|sohn|tochter"},
	{"de", Sadness, "trauer|traurig*|leid|schmerz*|weh|wein*|trane*|leiden|verlor*|verlier*|allein|einsam*|leer|gebrochen|verzweifel*|bereu*|arm|tragisch|tragodie|tot|tod|sterb*|starb|beerdigung|abschied|verlass*|krank|versag*|schlecht*|schrecklich|furchtbar|schlimm*|schade|scham|schuld*|vermiss*"},
	{"de", Anger, "wut|wutend|zorn|zornig|hass*|sauer|argerlich|arger*|aufreg*|nerv*|frustr*|verdammt|scheisse|scheiss*|mist|arschloch|lugner|luge*|lugst|betrug*|verrat*|kampf|kampf*|schlag*|zerstor*|rache|feind*|droh*|beleidig*|unfair|schrei*|wie kannst du|raus|halt die klappe|halts maul|genug|es reicht|idiot*|dumm*|blod*|depp"},
	{"de", Fear, "angst|furcht|furcht*|erschreck*|schreck*|horror|terror|gefahr*|gefahrlich|risiko|bedroh*|geist*|gespenst*|monster|alptraum|albtraum|zitter*|nervos|sorge*|besorgt|versteck*|lauf|renn*|flucht|flieh*|falle|angriff|waffe|bombe|mord*|morder*|blut|dunkel*|notfall|vorsicht|hilfe|polizei|schnell"},
	{"de", Surprise, "plotzlich|uberrasch*|unerwartet*|erstaun*|unglaublich|mein gott|oh nein|wirklich|echt|seltsam|komisch|merkwurdig|geheimnis*|entdeck*|unmoglich|wunder|krass|wahnsinn"},
	{"de", Disgust, "ekel*|eklig|widerlich|abscheu*|schmutzig|dreckig|stink*|verfault|kotz*|hasslich|schwein*|mull|ratte|verachtung|pfui|igitt"},
	{"de", Hope, "hoffe*|hoffnung|plan*|bereit|vorbereit*|traum*|traum|ziel|vielleicht|endlich|anfang*|beginn*|abenteuer|reise|kommt|freue mich auf"},

	{"it", Joy, "gioia|felic*|content*|divert*|festa|festeggi*|vinc*|vinto|successo|perfett*|eccellente|fantastic*|meraviglios*|bell*|buon*|meglio|miglior*|sorri*|rid*|ball*|cant*|fortuna*|orgoglios*|calm*|pace|splendid*|grande|si|bene"},
	{"it", Love, "amore|amo|ami|amare|ti voglio|car*|bac*|abbracc*|cuore|fidanzat*|moglie|marito|matrimonio|sposa*|insieme|sempre|amic*|famiglia|mamma|madre|papa|padre|fiducia|fid*|leale|credo in|promess*|prometto|protegg*|rispett*|sincer*|verita|figlio|figlia"},
	{"it", Sadness, "tristezza|trist*|dolore|male|piang*|lacrim*|soffr*|pers*|perdere|solo|sola|solitudine|vuoto|rotto|disperat*|dispiac*|rimpiant*|povero|povera|tragedia|tragic*|mort*|morire|muore|funerale|addio|abbandon*|malat*|fallimento|fallit*|brutto|terribile|orribile|peggio|peccato|vergogna|colpa*|manca"},
	{"it", Anger, "rabbia|arrabbiat*|ira|furia|furios*|odio|odi*|fastidio|irrit*|frustr*|maledett*|diavolo|inferno|bastardo|bugiardo|bugi*|menti*|tradi*|litig*|picchi*|distrugg*|vendetta|nemic*|minacc*|insult*|ingiust*|grid*|come osi|vattene|zitto|stai zitto|basta|idiota|stupido|cretino|imbecille|cazzo|merda|vaffanculo"},
	{"it", Fear, "paura|spavent*|terrore|orrore|pericol*|rischio|minaccia|fantasm*|mostro*|incubo*|trem*|nervos*|preoccup*|ansia|nascond*|corri|scapp*|fugg*|trappola|attacco|arma|pistola|bomba|assassin*|sangue|buio|scuro|emergenza|attento|attenzione|aiuto|polizia"},
	{"it", Surprise, "improvvis*|sorpres*|inaspettat*|stupit*|incredibil*|mio dio|oddio|davvero|strano|strana|mistero|segreto|scopr*|impossibile|miracolo|caspita|accidenti"},
	{"it", Disgust, "schifo|disgust*|ripugnan*|sporc*|puzz*|marcio|vomit*|brutt*|maiale|porco|spazzatura|ratto|disprezz*|nausea*|che schifo"},
	{"it", Hope, "spero|speranza|piano|pronta|prepar*|sogn*|obiettivo|forse|finalmente|inizi*|comincia*|avventura|viaggio|arriv*|andiamo"},

	{"tr", Joy, "mutlu*|sevin*|neseli|nese|eglen*|parti|kutla*|kazan*|basari*|mukemmel|harika|muthis|guzel*|iyi|daha iyi|en iyi|gulumse*|gul*|dans|sarki|sans*|sansli|gurur*|sakin|huzur*|super|evet|tamam"},
	{"tr", Love, "sevgi|sev*|ask*|askim|canim|sevgilim|opucuk|op*|sarıl*|saril*|kalp*|kalbim|sevgili|karim|kocam|evlen*|dugun|birlikte|beraber|sonsuza|arkadas*|dost*|aile*|anne*|baba*|guven*|sadik|inan*|soz ver*|soz veriyorum|koru*|saygi*|durust*|gercek|oglum|kizim"},
	{"tr", Sadness, "uzun*|uzgun*|uzul*|keder*|aci*|agla*|gozyas*|kaybet*|kayip|yalniz*|bos|kirik|umutsuz*|pisman*|zavalli|trajedi|trajik|olum|ol*|oldu|cenaze|elveda|hosca kal|terk*|hasta*|basarisiz*|kotu|berbat|korkunc|daha kotu|yazik|utan*|sucl*|ozle*|hasret"},
	{"tr", Anger, "ofke*|kizgin*|kiz*|sinir*|nefret*|rahatsiz|bikt*|lanet*|kahretsin|allah kahretsin|cehennem|pislik|yalan*|yalanci|aldat*|ihanet*|kavga*|vur*|yok et*|intikam|dusman*|tehdit*|suclu|hakaret*|haksiz*|bagir*|nasil cesaret|defol|sus|kes sesini|yeter|aptal*|salak*|gerizekali|ahmak|siktir|bok"},
	{"tr", Fear, "korku*|kork*|dehset*|tehlike*|risk*|tehdit|hayalet*|canavar*|kabus*|titre*|gergin*|endise*|kaygi*|sakla*|kac*|tuzak|saldiri*|silah*|bomba|cinayet|katil*|kan|karanlik|acil|dikkat|yardim*|imdat|polis|cabuk|hemen"},
	{"tr", Surprise, "aniden|birden|surpriz*|beklenmedik|sasir*|sasirt*|inanilmaz|aman tanrim|tanrim|allahim|gercekten|cidden|garip|tuhaf|gizem*|sir|kesfet*|imkansiz|mucize|vay"},
	{"tr", Disgust, "igrenc*|igren*|tiksin*|kirli|pis|kok*|curuk|kus*|cirkin|domuz|cop|fare|asagilik|mide bulan*|yuck|iy"},
	{"tr", Hope, "umarim|umut*|plan*|hazir*|hayal*|hedef*|belki|sonunda|nihayet|basla*|macera|yolculuk|gel*|insallah"},

	{"ru", Joy, "радост*|рад|рада|счаст*|весел*|доволен|довольна|праздн*|побед*|выигр*|успех*|идеальн*|отличн*|прекрасн*|замечательн*|чудесн*|хорош*|лучш*|улыб*|смея*|танц*|пе*|удач*|горд*|спокойн*|мир|супер|класс|да"},
	{"ru", Love, "любов*|люблю|любим*|милый|милая|дорог*|поцел*|обним*|сердц*|парень|девушк*|жена|муж|свадьб*|вместе|навсегда|друг*|семь*|мама|мать|папа|отец|довер*|верн*|верю|обеща*|защит*|уваж*|честн*|правд*|сын|дочь"},
	{"ru", Sadness, "печал*|грус*|боль|больно|плак*|слез*|страда*|потер*|один|одна|одиноч*|пуст*|разбит*|отчая*|сожале*|бедн*|трагед*|трагич*|смерт*|умер*|умир*|похорон*|прощай|брос*|болен|больна|провал*|плох*|ужасн*|хуже|жаль|стыд*|вин*|скуча*"},
	{"ru", Anger, "гнев*|зл*|ярост*|ненави*|раздраж*|бес*|черт*|проклят*|ад|сволоч*|ублюд*|лжец|лож*|врешь|вран*|обман*|предат*|пред*|драк*|бить|удар*|уничтож*|месть|враг*|угро*|виноват|оскорб*|несправедлив*|крич*|как ты смеешь|убирайся|вон|заткнись|хватит|довольно|идиот*|дурак*|туп*|блин|сука|хрен"},
	{"ru", Fear, "страх*|страш*|бо*|испуг*|ужас*|опасн*|риск*|угроз*|призрак*|монстр*|кошмар*|дрож*|нерв*|тревог*|беспоко*|волну*|прят*|беги|бежать|убега*|ловушк*|напад*|оруж*|пистолет|бомб*|убий*|кров*|темн*|осторожно|помоги*|помощ*|полиц*|быстр*"},
	{"ru", Surprise, "вдруг|внезапн*|сюрприз*|неожидан*|удив*|невероятн*|боже|господи|о нет|правда|серьезно|странн*|тайн*|секрет*|обнаруж*|невозможн*|чудо|ничего себе|ого"},
	{"ru", Disgust, "отвращ*|отврат*|мерз*|гадк*|грязн*|вон*|воня*|гнил*|блев*|тошн*|урод*|свинья|свинь*|мусор|крыс*|презр*|фу"},
	{"ru", Hope, "надеюсь|надежд*|план*|готов*|мечт*|цель|может быть|наконец|начина*|приключ*|путешеств*|приед*|идем|пойдем"},

	{"id", Joy, "senang|bahagia|gembira|ceria|riang|pesta|rayakan|merayakan|menang|sukses|berhasil|sempurna|hebat|luar biasa|indah|bagus|baik|lebih baik|terbaik|senyum*|tertawa|ketawa|menari|nyanyi|bernyanyi|beruntung|bangga|tenang|damai|asyik|keren|mantap|ya"},
	{"id", Love, "cinta|mencintai|sayang|kasih|sayangku|cium*|peluk*|hati|pacar*|istri|suami|nikah|menikah|pernikahan|bersama|selamanya|teman*|sahabat*|keluarga|ibu|ayah|mama|papa|percaya|setia|janji|berjanji|lindungi|hormat*|jujur|kebenaran|anak"},
	{"id", Sadness, "sedih|kesedihan|duka|sakit|menangis|nangis|air mata|menderita|kehilangan|hilang|sendiri*|kesepian|kosong|hancur|putus asa|menyesal|kasihan|miskin|tragedi|tragis|mati|meninggal|kematian|pemakaman|selamat tinggal|ditinggal*|gagal|buruk|jelek|parah|mengerikan|malu|bersalah|rindu|kangen"},
	{"id", Anger, "marah|kemarahan|murka|benci|membenci|kesal|jengkel|sebal|sialan|brengsek|bajingan|keparat|bohong|pembohong|tipu|menipu|khianat*|berkelahi|pukul|hancurkan|balas dendam|musuh|ancam*|salah*|hina*|tidak adil|teriak|berteriak|berani-beraninya|pergi sana|diam|cukup|bodoh|tolol|goblok|idiot|anjing|bangsat"},
	{"id", Fear, "takut|ketakutan|ngeri|seram|horor|teror|bahaya|berbahaya|risiko|hantu|monster|mimpi buruk|gemetar|gugup|cemas|khawatir|sembunyi|lari|kabur|perangkap|serang*|senjata|pistol|bom|bunuh|pembunuh*|darah|gelap|darurat|hati-hati|awas|tolong|polisi|cepat"},
	{"id", Surprise, "tiba-tiba|kejutan|terkejut|kaget|tak terduga|heran|luar biasa|ya tuhan|astaga|benarkah|serius|aneh|misteri|rahasia|menemukan|mustahil|tidak mungkin|keajaiban|wow|wah"},
	{"id", Disgust, "jijik|menjijikkan|kotor|busuk|bau|muntah|jelek|babi|sampah|tikus|hina|najis"},
	{"id", Hope, "semoga|harap*|berharap|harapan|rencana|siap|mimpi|tujuan|mungkin|akhirnya|mulai|petualangan|perjalanan|datang|ayo"},

	{"zh", Joy, "快乐|开心|高兴|幸福|欢乐|愉快|庆祝|赢|成功|完美|优秀|精彩|美好|美丽|漂亮|好极了|最好|更好|微笑|跳舞|唱歌|幸运|骄傲|平静|和平|太棒|真棒|好的"},
	{"zh", Love, "爱|亲爱|宝贝|吻|拥抱|抱抱|男朋友|女朋友|妻子|丈夫|老婆|老公|结婚|婚礼|一起|永远|朋友|家人|家庭|妈妈|母亲|爸爸|父亲|信任|相信|忠诚|诚实|承诺|保护|尊重|真心|儿子|女儿"},
	{"zh", Sadness, "悲伤|伤心|难过|痛苦|痛|哭|眼泪|泪|受苦|失去|丢了|孤独|寂寞|空虚|心碎|绝望|后悔|可怜|悲剧|去世|葬礼|再见|永别|抛弃|病|失败|糟糕|可怕|更糟|可惜|羞耻|内疚|想念"},
	{"zh", Anger, "愤怒|生气|气死|恨|讨厌|烦|可恶|该死|混蛋|王八蛋|骗子|撒谎|骗|背叛|打架|毁|报仇|敌人|威胁|怪你|侮辱|不公平|喊|吼|你敢|滚开|闭嘴|够了|白痴|笨蛋|蠢|傻|他妈的"},
	{"zh", Fear, "害怕|恐惧|恐怖|吓|危险|风险|威胁|鬼|怪物|噩梦|发抖|紧张|担心|焦虑|躲|跑|逃|陷阱|攻击|枪|武器|炸弹|谋杀|杀|血|黑暗|紧急|小心|救命|帮帮|警察|快点"},
	{"zh", Surprise, "突然|惊喜|意外|惊讶|吃惊|难以置信|天哪|我的天|真的|奇怪|神秘|秘密|发现|不可能|奇迹|哇"},
	{"zh", Disgust, "恶心|讨厌|厌恶|脏|臭|腐烂|吐|丑|猪|垃圾|老鼠|鄙视|呸"},
	{"zh", Hope, "希望|盼望|期待|计划|准备|梦想|目标|也许|可能|终于|开始|冒险|旅行|来了|走吧"},

	{"ar", Joy, "فرح|فرحه|سعاده|سعيد*|مبسوط*|مسرور|احتفال|نحتفل|فوز|فزنا|نجاح|نجحت|رائع*|ممتاز|جميل*|حلو*|احسن|افضل|ابتسم*|ضحك|رقص|غناء|محظوظ|فخور|هادئ|سلام|عظيم|نعم"},
	{"ar", Love, "حب|احب|احبك|حبيب*|عزيز*|قبله|حضن|قلب*|زوج*|زواج|عرس|معا|سويا|للابد|دائما|صديق*|اصدقاء|عائل*|امي|ام|ابي|اب|ثقه|اثق|وفي|مخلص|اصدق|وعد|اعدك|احمي|احترام|صادق|الحقيقه|ابني|ابنتي"},
	{"ar", Sadness, "حزن|حزين*|الم|يؤلم|ابكي|بكاء|دموع|معانا*|فقدت|خسار*|وحيد*|وحده|فارغ|مكسور*|يأس|يائس|ندم|مسكين|فقير|ماساه|موت|مات|ميت|جنازه|وداع|تركني|مريض*|فشل|سيء|سيئ|فظيع|اسوا|للاسف|خجل|ذنب|اشتقت"},
	{"ar", Anger, "غضب|غاضب*|زعلان|كره|اكره*|مستاء|منزعج|تبا|لعنه|اللعنه|جحيم|حقير|كذاب|كذب|تكذب|خيانه|خائن|قتال|اضرب|ضرب|دمر|انتقام|عدو|اعداء|تهديد|اهانه|ظلم|ظالم|اصرخ|صراخ|كيف تجرؤ|اخرج|اسكت|اخرس|كفى|يكفي|غبي|احمق|حمار"},
	{"ar", Fear, "خوف|خائف*|خايف*|مرعب|رعب|ذعر|خطر|خطير|تهديد|شبح|وحش|كابوس|ارتجف|متوتر|قلق*|اختبئ|اهرب|هرب|فخ|هجوم|سلاح|مسدس|قنبله|قتل|قاتل|دم|ظلام|طوارئ|احذر|انتبه|النجده|ساعدني|شرطه|بسرعه"},
	{"ar", Surprise, "فجأه|مفاجأه|مفاجئ|متفاجئ|مندهش|دهشه|لا يصدق|يا الهي|حقا|بجد|غريب|سر|لغز|اكتشف|مستحيل|معجزه|واو"},
	{"ar", Disgust, "مقرف|قرف|اشمئزاز|وسخ|قذر|نتن|ريحه|عفن|تقيؤ|قبيح|خنزير|زباله|فار|احتقار|يع"},
	{"ar", Hope, "امل|اتمنى|نتمنى|خطه|جاهز|حلم|هدف|ربما|يمكن|اخيرا|نبدأ|بدايه|مغامره|سفر|قادم|يلا"},
}
