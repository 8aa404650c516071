/** The part of jsfive (pure-JavaScript HDF5 reader, BSD-3-Clause) the river build uses: netCDF-4 variables by name. */
declare module 'jsfive' {
  export class File {
    constructor(buffer: ArrayBuffer, filename: string);
    readonly keys: string[];
    get(name: string): { readonly value: ArrayLike<number>; readonly shape: number[] };
  }
}
