// The directory's search box: typing updates the box at once and the search only after a pause.
import { SearchBox } from '../../../components/search-box';
import { DIRECTORY_STRINGS as S } from '../strings';

export function VisitorSearch({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  return (
    <SearchBox
      value={value}
      onSearch={onSearch}
      label={S.search}
      placeholder={S.searchPlaceholder}
      clearLabel={S.clearSearch}
    />
  );
}
