//go:build !crashpoints

package crashpoint

// tagged: built without the crashpoints tag, the switches are off until
// Enable.
const tagged = false
