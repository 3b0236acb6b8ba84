package retrieve

// tuning holds the tuned ranker's parameters: BM25's k1 and b, and the
// term frequency a term earns by appearing in a field, added to its count
// in the body before saturation (see scorer.go for the evidence).
var tuning = struct {
	k1, b, asked, heading, answers, k3 float64
}{k1: 1.2, b: 0.6, asked: 2, heading: 2, answers: 2, k3: 3}
