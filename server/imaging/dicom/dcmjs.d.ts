// dcmjs ships no type declarations; only its data dictionary is used here.
declare module 'dcmjs' {
  const dcmjs: {
    data: {
      DicomMetaDictionary: { dictionary: Record<string, { tag: string; vr: string; name: string } | undefined> };
    };
  };
  export default dcmjs;
}
