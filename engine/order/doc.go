// Package order sorts slices of structs as slices.SortFunc and
// slices.SortStableFunc do, without a sort compiled for every element
// type.
//
// Go compiles a generic function once per "shape" of its type
// arguments: all pointers share one, but every struct type is its own,
// and slices.SortFunc brings about ten functions (pdqsort, partitions,
// insertion and heap sorts) to each: 20–28 KB of wasm per struct type
// the playground sorted, with names hundreds of characters long. Here
// the sort runs on the slice's indices, a []int whose sort every caller
// shares, and only the few lines that copy elements are compiled per
// type. A sort of a few hundred elements, which is what the controllers
// sort, costs an allocation of its indices and a copy more.
package order
