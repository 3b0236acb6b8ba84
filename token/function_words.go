package token

import "slices"

// Function words carry a sentence's grammar, not its subject: "how do I
// rename a note" is about renaming notes. A question written as a sentence
// should find what its keywords find, so function words do not score when
// the question holds any other word, and they do not count towards a note's
// coverage of the question.
//
// BM25's idf alone does not do this in a small store: "what" and "is" are
// held by a third of the notes, not by nearly all of them, so a long note
// that holds every function word of the question outscores the short one
// that holds its subject (the lists' effect on the tune sets is in the
// README's Ranking section).
//
// The lists are per language, because a function word of one is a content
// word of another (German "die", French "son", Italian "come"): a question's
// language is the one whose list holds most of its words, and only that
// list applies. Scripts written without spaces between words (Chinese,
// Japanese, Korean's particles, Thai, Khmer) have no list: their terms are
// character bigrams or whole runs, and idf weighs them. Catalan, Romanian,
// Hungarian, Finnish, Slovak, Vietnamese and Bengali have no list yet.
var functionWords = map[string]string{
	"en": `a about above after again against all almost along already also although always am among an and
		another any anyone anything are aren as at be because been before being between both but by can could
		couldn d did didn do does doesn doing don done during each either else enough even ever every few for
		from further had hadn has hasn have haven having he her here hers herself him himself his how however i
		if in into is isn it its itself just least less ll m many may me might more most much must mustn my
		myself neither never no nor not now of often on once only onto or other others otherwise our ours
		ourselves per perhaps rather re really s same several shall she should shouldn since so some such
		t than that the their theirs them themselves then there these they this those though through thus to
		too toward towards until upon us ve very via was wasn we were weren what whatever when whenever where
		whereas wherever whether which while who whoever whom whose why will with within without won would
		wouldn yet you your yours yourself yourselves`,
	"de": `der die das den dem des ein eine einen einem einer eines und oder aber in im ins an am auf aus bei
		mit nach von vom zu zum zur für über unter vor durch gegen ohne um ist sind war waren sein bin bist hat
		habe haben hatte wird werden wurde kann können muss müssen soll sollte will möchte ich du er sie es wir
		ihr mich mir dich dir sich uns euch mein meine dein deine seine ihre unser nicht kein keine auch nur
		noch schon so wie was wer wo wann warum welche welcher welches dass wenn ob als da dann denn doch man
		hier dort sehr mehr`,
	"fr": `le la les l un une des du de d et ou mais donc car ni à au aux en dans sur sous par pour avec sans
		chez vers entre ce cet cette ces c ça cela qui que qu quoi dont où comment pourquoi quand quel quelle
		quels quelles est sont être était été ai as a avons avez ont avoir peut peux pouvez je j tu il elle on
		nous vous ils elles me m te t se s mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs ne n
		pas plus y si aussi très tout tous toute toutes`,
	"es": `el la los las lo un una unos unas y e o u pero de del a al en con por para sin sobre entre desde
		hasta que qué quién cómo cuándo dónde cuál cuáles es son ser está están estar era fue ha han he hay
		puede puedo pueden se me te le les nos os mi mis tu tus su sus yo tú él ella usted ustedes nosotros
		ellos ellas este esta estos estas ese esa eso esto no sí si más muy también ya como cuando donde todo
		todos`,
	"it": `il lo la i gli le l un uno una e ed o ma di del della dei delle da dal dalla a al alla ai in nel
		nella con su sul sulla per tra fra che chi cosa come quando dove perché quale quali è sono essere era
		stato ha hanno ho avere può posso possono si mi ti ci vi mio mia tuo tua suo sua io tu lui lei noi voi
		loro questo questa quello quella non più anche molto se ne`,
	"pt": `o a os as um uma uns umas e ou mas de do da dos das em no na nos nas por pelo pela para com sem
		sobre entre que quem como quando onde porque qual quais é são ser está estão estar era foi tem têm ter
		há pode posso podem se me te lhe meu minha seu sua eu tu você vocês ele ela nós eles elas este esta
		isto esse essa isso aquele não sim mais muito também já ao aos à às`,
	"nl": `de het een en van in op te dat die is zijn was waren voor met aan er niet als ook maar om of bij
		door naar uit over tot dan wat hoe wie waar wanneer waarom welke ik je jij u hij zij ze we wij jullie
		mijn jouw uw haar hun ons onze dit deze kan kunnen wordt worden heb hebt heeft hebben moet moeten zal
		zou al nog wel geen`,
	"sv": `och i att det som en ett på är av för med till den har de inte om var jag du han hon vi ni dem sig
		min din sin vår er så men eller från när hur vad vem varför vilken vilket vilka kan ska skulle blir bli
		vara hade också bara där här nu än ut upp`,
	"da": `og i at det der som en et på er af for med til den har de ikke om var jeg du han hun vi dem sig
		min din sin vores jeres så men eller fra når hvordan hvad hvem hvorfor hvilken hvilket hvilke kan skal
		skulle bliver blive være havde også kun her nu end ud op`,
	"no": `og i å det som en et ei på er av for med til den har de ikke om var jeg du han hun vi dere dem seg
		min din sin vår så men eller fra når hvordan hva hvem hvorfor hvilken hvilket hvilke kan skal skulle
		blir bli være hadde også bare der her nå enn ut opp`,
	"ru": `и в во не что он она оно они я ты мы вы на с со как а то все всё так его её их но да к у же за бы
		по только мне меня от еще ещё нет о об из ему ей им когда даже ли если уже или ни быть был была было
		были до там где есть для чем чтобы это этот эта эти этого этой этом кто какой какая какие который
		которая которые можно может при через после перед под над между также тоже`,
	"uk": `і й в у на з із зі до від по за про для не що як це цей ця ці той та але або чи якщо коли де чому
		я ти він вона воно ми ви вони мій твій його її їх є був була було бути може можна також тільки вже ще
		так ні щоб при між після перед`,
	"pl": `i w we z ze na do nie się że to jest jak o od po za co czy dla ale a lub albo już tak jego jej ich
		ten ta te tego być są był była było może przez przy oraz gdy jeśli jeżeli tylko także też ja ty on ona
		my wy oni mój twój jaki która który które kiedy gdzie dlaczego`,
	"cs": `a i v ve na s se z ze do k ke o od po pro za je jsou být byl to ten ta jak co kde kdy proč že ale
		nebo jako jsem jsi jste jsme mám má mají tak také jen už ještě při přes pod nad který která které jeho
		její jejich můj tvůj si mi ti mu`,
	"tr": `ve bir bu şu o da de ile için gibi ne nasıl neden niçin mi mı mu mü ama fakat veya ya ise daha çok
		en her hangi kadar sonra önce ben sen biz siz onlar ki değil var yok`,
	"id": `yang dan di ke dari ini itu dengan untuk pada adalah dalam tidak akan atau juga ada saya anda kamu
		kami kita mereka dia bisa dapat bagaimana apa apakah mengapa kapan mana sudah belum jika kalau karena
		oleh sebagai lebih tersebut telah hanya saja`,
	"el": `και το τα του της των τον την η ο οι ένα μια ενός σε στο στη στην στα στον στις στους με από για ως
		να θα δεν μη μην που πώς πως τι ποιο ποια ποιος είναι ήταν έχει έχουν αυτό αυτή αυτός αυτά εγώ εσύ
		εμείς εσείς μου σου μας σας ή αν όταν όπως αλλά επίσης`,
	"ar": `في من على إلى الى عن مع هذا هذه ذلك تلك التي الذي الذين أن إن ان كان كانت يكون لا ما هل كيف ماذا
		لماذا متى أين أو ثم قد كل بعض عند هو هي هم أنا نحن أنت أنتم لم لن إذا اذا بين حتى أي غير`,
	"fa": `از به در با که این آن را و یا برای تا هم اگر چه چگونه چطور چرا کجا است هست بود شود شد می ها های
		یک من تو او ما شما آنها خود هر نیز اما پس روی بر باید`,
	"he": `של את על עם אל זה זו זאת הוא היא הם הן אני אתה אנחנו כי אם או גם לא כן מה איך למה מתי איפה כל יש
		אין רק עוד כמו אבל אשר היה הייתה להיות`,
}

// languageOrder breaks ties between languages whose lists hold equally many
// of a question's words: the first listed wins.
var languageOrder = []string{"en", "de", "fr", "es", "it", "pt", "nl", "sv", "da", "no", "ru", "uk", "pl", "cs", "tr", "id", "el", "ar", "fa", "he"}

// minFunctionWords is how many of a question's words a language's list
// must hold for the question to be in that language. One is not enough: a
// lone listed word is as often a name or a content word of another
// language ("github io pages", "de novo assembly", "Ly6C lo monocytes"),
// and on scifact one word let 7 keyword questions lose a term that their
// full sentences, whose English words outvote it, kept.
const minFunctionWords = 2

// QuestionLanguage is the language whose function words a question uses
// most, among those with a list; "" when none holds minFunctionWords of
// its words.
func QuestionLanguage(terms []string) string {
	best, most := "", minFunctionWords-1
	for _, lang := range languageOrder {
		n := 0
		for _, t := range terms {
			if isFunctionTerm(lang, t) {
				n++
			}
		}
		if n > most {
			best, most = lang, n
		}
	}
	return best
}

// IsFunctionWord reports whether term, as indexed, is one of the function
// words of lang (a QuestionLanguage result; "" has none).
func IsFunctionWord(lang, term string) bool {
	return isFunctionTerm(lang, term)
}

func isFunctionTerm(lang, term string) bool {
	_, found := slices.BinarySearch(functionTerms[lang], term)
	return found
}
