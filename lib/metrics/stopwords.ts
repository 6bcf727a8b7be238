/**
 * The stopword list of CodeReviewer's evaluator (`microsoft/CodeBERT` CodeReviewer/code/evaluator/
 * stopwords.txt, MIT licence): 592 lowercase entries. `bleu_fromstr(..., rmstop=True)` drops
 * tokens found here; CRScore's "BLEU (without stopwords)" baseline is that call (CRScore
 * `scripts/run_ref_based_eval.py`). Entries with an apostrophe or a period never match a
 * wordpunct token, but are kept so the list stays the published one.
 */
export const CODEREVIEWER_STOPWORDS: ReadonlySet<string> = new Set(
  [
    "about above abroad according accordingly across actually adj after afterwards again against ago",
    "ahead ain't all almost alone along alongside already also although always am amid amidst among",
    "amongst an and any anybody anyhow anyone anything anyway anyways anywhere apart appear",
    "appropriate are aren't around as a's aside associated at available away awfully back backward",
    "backwards be became because become becomes becoming been before beforehand begin behind being",
    "believe below best better between beyond both brief but by came can cannot cant can't caption",
    "cause causes certain certainly clearly c'mon co co. com come comes concerning consequently",
    "contain containing contains corresponding could couldn't course c's dare daren't definitely",
    "described despite did didn't different directly do does doesn't doing don't down downwards",
    "during each edu eg eight eighty either elsewhere end ending entirely et etc even ever evermore",
    "every everybody everyone everything everywhere ex exactly except fairly far farther few fewer",
    "fifth first five followed following follows for forever former formerly forth forward found four",
    "from further furthermore get gets getting given gives go goes going gone got gotten greetings",
    "had hadn't half happens hardly has hasn't have haven't having he he'd he'll hello help hence her",
    "here hereafter hereby herein here's hereupon hers herself he's hi him himself his hither",
    "hopefully how howbeit however hundred i'd ie if ignored i'll i'm immediate in inasmuch inc inc.",
    "indeed indicate indicated indicates inner inside insofar into inward is isn't it it'd it'll its",
    "it's itself i've just k keep keeps kept know known knows last lately later latter latterly least",
    "less lest let let's like liked likely likewise little look looking looks low lower ltd made",
    "mainly make makes many may maybe mayn't me mean meantime meanwhile merely might mightn't mine",
    "minus moreover most mostly mr mrs much must mustn't my myself name namely nd near nearly needn't",
    "neither never neverf neverless nevertheless next nine ninety no nobody non none nonetheless",
    "noone no-one nor normally not nothing notwithstanding novel now nowhere obviously of off often",
    "oh ok okay old on once one ones one's only onto opposite or otherwise ought oughtn't our ours",
    "ourselves out outside over overall own particular particularly past per perhaps placed plus",
    "possible presumably probably que quite qv rather rd re really reasonably recent recently",
    "regarding regardless regards relatively respectively right round said same saw say saying says",
    "second secondly see seeing seem seemed seeming seems seen self selves sensible sent seven",
    "several shall shan't she she'd she'll she's should shouldn't since six so somebody someday",
    "somehow someone something sometime sometimes somewhat somewhere sorry specified specify",
    "specifying still sub such sup sure take taken taking tell tends th than that that'll thats",
    "that's that've the their theirs them themselves then thence there thereafter thereby there'd",
    "therefore therein there'll there're theres there's thereupon there've these they they'd they'll",
    "they're they've thing things think third thirty this thorough thoroughly those though three",
    "through throughout thru thus till to together too took toward towards tried tries truly try",
    "trying t's twice two un under underneath undoing unfortunately unless unlike unlikely until unto",
    "up upon upwards us use used uses using usually v value various versus very via viz vs was wasn't",
    "way we we'd well we'll went were we're weren't we've what whatever what'll what's what've when",
    "whence whenever where whereafter whereas whereby wherein where's whereupon wherever whether",
    "which whichever while whilst whither who who'd whoever whole who'll whom whomever who's whose",
    "why will with within without wonder won't would wouldn't yes yet you you'd you'll your you're",
    "yours yourself yourselves you've zer",
  ]
    .join(" ")
    .split(" "),
);
