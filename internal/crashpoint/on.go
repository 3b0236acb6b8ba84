//go:build crashpoints

package crashpoint

// tagged: built with the crashpoints tag, the switches are on.
const tagged = true
