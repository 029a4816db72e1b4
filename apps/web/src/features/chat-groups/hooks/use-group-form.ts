// The chat group form (settings tab and group embed settings share it): drafts in, a save request out.
import type { TChatGroupSettings } from '@titan/contracts';
import { useForm, type UseFormReturn } from 'react-hook-form';

import {
  groupFormResolver,
  toFormValues,
  type TGroupFormValues,
  type TGroupRequest,
} from '../utils/group-form';

export type TGroupForm = UseFormReturn<TGroupFormValues, unknown, TGroupRequest>;

export function useGroupForm(group?: TChatGroupSettings): TGroupForm {
  return useForm<TGroupFormValues, unknown, TGroupRequest>({
    resolver: groupFormResolver,
    defaultValues: toFormValues(group),
  });
}
