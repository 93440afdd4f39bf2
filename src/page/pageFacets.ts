/**
 * The versions page's facets beside the list (each value a link adding or removing its filter) and, with
 * filters applied, how many versions they leave and the way back to all of them.
 */
import { formatLabel } from '../i18n/labels.js';
import { versionsPageHref, versionsPageHrefs } from '../versions/versionsUrls.js';
import { languageNameIn } from '../record/recordLanguages.js';
import type { FacetModel, FacetValueModel, FilteredModel, VersionsPageModel } from './pageViewModels.js';
import type { VersionsFilter } from '../ports.js';
import { filterParameter } from '../versions/versionsFilters.js';
import { FACET_FIELDS, FACET_VALUES_LIMIT, isYearsFacet, type FacetField } from '../record/recordFacets.js';
import type { VersionsPageInput } from './pageInput.js';

/** Facet values as a reader sees them: formats translated, languages named in the page's language. */
function facetValueLabel(field: FacetField, value: string, input: VersionsPageInput): string {
  if (field === 'format') return formatLabel(value, input.translate);
  if (field === 'language') return languageNameIn(value, input.language);
  return value;
}

/** The facets beside the list: each value adds its filter (page 1), an applied one removes it. */
export function facetsOf(input: VersionsPageInput): VersionsPageModel['facets'] {
  const counts = input.versions.facets;
  if (counts === undefined || input.versions.total < 2 && (input.filters ?? []).length === 0) return undefined;
  const applied = input.filters ?? [];
  const fields: FacetModel[] = [];
  const pageHref = versionsPageHrefs(input.requestedRecord.id, input.explicitLanguage, input.sort);
  // The applied filters' parameters, written once for the links of every value.
  const appliedParams = applied.map(filterParameter);
  const isFilter = (filter: VersionsFilter, field: FacetField, value: string) => filter.field === field && filter.value === value;
  for (const field of FACET_FIELDS) {
    const values = counts[field];
    if (values === undefined || values.length === 0) continue;
    const shown = values.map(({ value, count }): FacetValueModel => {
      const isApplied = applied.some((filter) => isFilter(filter, field, value));
      const next = isApplied
        ? appliedParams.filter((_, i) => !isFilter(applied[i] as VersionsFilter, field, value))
        : appliedParams.length === 0 ? [filterParameter({ field, value })] : [...appliedParams, filterParameter({ field, value })];
      return { label: facetValueLabel(field, value, input), count, isApplied, href: pageHref(1, next) };
    });
    // The years come uncut, newest first (src/record/recordFacets.ts): those beyond the 30 newest are folded, not dropped.
    if (!isYearsFacet(field) || shown.length <= FACET_VALUES_LIMIT) {
      fields.push({ label: input.translate(`facet.${field}`), values: shown });
      continue;
    }
    const rest = shown.slice(FACET_VALUES_LIMIT);
    fields.push({
      label: input.translate(`facet.${field}`),
      values: shown.slice(0, FACET_VALUES_LIMIT),
      more: { label: input.translate('facets.moreYears', { count: rest.length }), values: rest, isOpen: rest.some((value) => value.isApplied) },
    });
  }
  return fields.length > 0 ? { label: input.translate('facets.label'), removeLabel: input.translate('facets.remove'), fields } : undefined;
}

/** With filters: "3 of 8 versions" (or that none matches) and the way back to every version. */
export function filteredOf(input: VersionsPageInput): FilteredModel | undefined {
  const filters = input.filters ?? [];
  if (filters.length === 0) return undefined;
  const { total } = input.versions;
  const of = input.versions.unfilteredTotal ?? total;
  return {
    message: total === 0 ? input.translate('filters.none', { total: of }) : input.translate('filters.count', { count: total, total: of }),
    clear: { href: versionsPageHref(input.requestedRecord.id, 1, input.explicitLanguage, input.sort), label: input.translate('filters.clear') },
  };
}
