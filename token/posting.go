package token

// Field records where in a note a term occurs.
type Field uint8

const (
	InKey Field = 1 << iota
	InTitle
	InHeading
	InAnswers
	InBody
	// InDescription is a frontmatter summary (description, desc, summary):
	// the tuned ranker weighs it like a heading; the baseline, whose terms
	// the first ranker omh had, does not read it at all.
	InDescription
	// InFolder marks a term of the folders in a note's key, InKey one of
	// its last part. The baseline counts both as the key; the tuned ranker
	// does not take a folder's name as the note's subject, since every note
	// in the folder shares it.
	InFolder
	// AllFields is every field at once: a codec packing fields needs room
	// for it.
	AllFields = InKey | InTitle | InHeading | InAnswers | InBody | InDescription | InFolder
)

// Posting is one note's entry in a term's list.
type Posting struct {
	Doc    uint32
	TF     uint32 // occurrences in the body
	Fields Field
}
