package index

import (
	"encoding/json"

	"github.com/omh-notes/omh/vault"
)

// A blob's meta is stored as JSON with short keys and empty fields left out:
// one row per version of every note adds up, and the long form was two
// thirds of the cache. These mirror the vault types field for field.
type storedMeta struct {
	Title            string          `json:"t,omitempty"`
	TitleFromH1      bool            `json:"h1,omitempty"`
	Type             string          `json:"ty,omitempty"`
	Source           string          `json:"so,omitempty"`
	Description      string          `json:"ds,omitempty"`
	DeclaredKey      string          `json:"k,omitempty"`
	Recorded         vault.Date      `json:"r,omitempty"`
	Dated            vault.Date      `json:"d,omitempty"`
	DatedField       string          `json:"df,omitempty"`
	Retracted        vault.Date      `json:"x,omitempty"`
	RetractedReason  string          `json:"xr,omitempty"`
	Aliases          []string        `json:"a,omitempty"`
	Tags             []string        `json:"g,omitempty"`
	Answers          []string        `json:"q,omitempty"`
	Headings         []storedHeading `json:"hs,omitempty"`
	Links            []storedLink    `json:"l,omitempty"`
	Units            []byte          `json:"u,omitempty"` // vault.AppendUnits
	BodyStart        int             `json:"b,omitempty"`
	FrontmatterLines int             `json:"fl,omitempty"`
	Problems         []storedProblem `json:"p,omitempty"`
	Size             int64           `json:"z"`
	Words            int             `json:"w,omitempty"`
	Cut              bool            `json:"cut,omitempty"`
	Binary           bool            `json:"bin,omitempty"`
}

type storedHeading struct {
	Level int    `json:"v"`
	Text  string `json:"t"`
	Start int    `json:"s"`
	Line  int    `json:"n"`
}

type storedLink struct {
	Kind     vault.LinkKind `json:"k"`
	Target   string         `json:"t"`
	Fragment string         `json:"f,omitempty"`
	Label    string         `json:"l,omitempty"`
	Verb     string         `json:"v,omitempty"`
	Lead     string         `json:"w,omitempty"`
	Start    int            `json:"s"`
	End      int            `json:"e"`
	Line     int            `json:"n"`
}

type storedProblem struct {
	Line    int    `json:"n,omitempty"`
	Rule    string `json:"r"`
	Message string `json:"m"`
}

func encodeMeta(m blobMeta) ([]byte, error) {
	p := m.Parsed
	s := storedMeta{
		Title: p.Title, TitleFromH1: p.TitleFromH1, Type: p.Type, Source: p.Source, Description: p.Description, DeclaredKey: p.DeclaredKey,
		Recorded: p.Recorded, Dated: p.Dated, DatedField: p.DatedField, Retracted: p.Retracted, RetractedReason: p.RetractedReason,
		Aliases: p.Aliases, Tags: p.Tags, Answers: p.Answers, BodyStart: p.BodyStart, FrontmatterLines: p.FrontmatterLines,
		Size: m.Size, Words: m.Words, Cut: m.Cut, Binary: m.Binary, Units: vault.AppendUnits(nil, p.Units),
	}
	for _, h := range p.Headings {
		s.Headings = append(s.Headings, storedHeading(h))
	}
	for _, l := range p.Links {
		s.Links = append(s.Links, storedLink(l))
	}
	for _, pr := range p.Problems {
		s.Problems = append(s.Problems, storedProblem(pr))
	}
	return json.Marshal(s)
}

func decodeMeta(b []byte) (blobMeta, error) {
	var s storedMeta
	if err := json.Unmarshal(b, &s); err != nil {
		return blobMeta{}, errDamaged
	}
	m := blobMeta{Size: s.Size, Words: s.Words, Cut: s.Cut, Binary: s.Binary, Parsed: vault.Parsed{
		Title: s.Title, TitleFromH1: s.TitleFromH1, Type: s.Type, Source: s.Source, Description: s.Description, DeclaredKey: s.DeclaredKey,
		Recorded: s.Recorded, Dated: s.Dated, DatedField: s.DatedField, Retracted: s.Retracted, RetractedReason: s.RetractedReason,
		Aliases: s.Aliases, Tags: s.Tags, Answers: s.Answers, BodyStart: s.BodyStart, FrontmatterLines: s.FrontmatterLines,
	}}
	for _, h := range s.Headings {
		m.Headings = append(m.Headings, vault.Heading(h))
	}
	for _, l := range s.Links {
		m.Links = append(m.Links, vault.Link(l))
	}
	for _, pr := range s.Problems {
		m.Problems = append(m.Problems, vault.Problem(pr))
	}
	units, err := vault.DecodeUnits(s.Units)
	if err != nil {
		return blobMeta{}, errDamaged
	}
	m.Units = units
	return m, nil
}
