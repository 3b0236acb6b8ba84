package reply

// Finding is one problem omh lint reports.
type Finding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"` // error or warning
	Key      string `json:"key"`
	Layer    string `json:"layer"`
	Path     string `json:"path"`
	Line     int    `json:"line"` // 1-based; 0 when the problem is not on one line
	Message  string `json:"message"`
	Fix      string `json:"fix"`
}

// RuleCount is how many findings one rule made, for lint's summary.
type RuleCount struct {
	Rule     string `json:"rule"`
	Errors   int    `json:"errors"`
	Warnings int    `json:"warnings"`
	Notes    int    `json:"notes"` // notes with at least one finding of the rule
}
