package lint

import (
	"strings"
)

// attachmentExts are the extensions of files a link may name that are not
// notes: pictures, documents, data, archives, media, code, and the
// Obsidian canvases and bases that live beside notes. A name with another
// "extension" may be a note whose name has dots (careers.mission,
// Excel.Range).
var attachmentExts = map[string]bool{}

func init() {
	for _, ext := range strings.Fields(`
		png jpg jpeg gif svg webp bmp ico tif tiff avif heic
		pdf doc docx xls xlsx xlsm ppt pptx odt ods odp rtf txt csv tsv epub
		html htm xml json yml yaml toml css js ts
		zip gz tgz tar 7z rar
		mp3 mp4 m4a mov wav ogg webm avi mkv
		py go sh ps1 bas cls frm vb
		canvas base excalidraw`) {
		attachmentExts[ext] = true
	}
}

// isAttachment reports whether a link's name ends in the extension of a file
// that is not a note.
func isAttachment(name string) bool {
	last := name[strings.LastIndexByte(name, '/')+1:]
	i := strings.LastIndexByte(last, '.')
	return i >= 0 && attachmentExts[strings.ToLower(last[i+1:])]
}
