import { plainFieldPath } from './schema-field-edits';

describe('plainFieldPath', () => {
  it('keeps the segments that are not bracketed, even when brackets hold dots', () => {
    expect(plainFieldPath('[version=2.0].[type=struct].address.[type=string].zipcode')).toBe('address.zipcode');
    expect(plainFieldPath('[version=2.0].[key=True].[type=int].id')).toBe('id');
    expect(plainFieldPath('address.zipcode')).toBe('address.zipcode');
  });
});
