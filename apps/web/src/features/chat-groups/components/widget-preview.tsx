// A mock of the chat widget drawn with our own components from the unsaved settings: a launcher in
// the chosen corner and its open panel with the greeting and the visitor form. It never talks to the
// real widget (which may not be deployed yet) and sends nothing.
import { MessageCircleIcon, SendIcon, XIcon } from 'lucide-react';
import { useState } from 'react';

import { cn } from '../../../lib/utils';
import { EMBED_STRINGS } from '../strings';
import { DEFAULT_COLOR, isHexColor, readableTextColor } from '../utils/color';
import type { TVisitorFieldDraft } from '../utils/group-form';
import { optionLines } from '../utils/group-form';

const S = EMBED_STRINGS.preview;

export type TWidgetPreviewProps = {
  title: string;
  color: string;
  greeting: string;
  position: 'right' | 'left';
  fields: readonly TVisitorFieldDraft[];
};

function PreviewField({ field, index }: { field: TVisitorFieldDraft; index: number }) {
  const label = `${field.label || field.name || `#${index + 1}`}${field.required ? ' *' : ''}`;
  const inputClass = 'w-full rounded border border-gray-300 bg-white px-2 py-1 text-xs text-gray-900';
  if (field.type === 'checkbox') {
    return (
      <label className="flex items-center gap-2 text-xs text-gray-700">
        <input type="checkbox" disabled />
        {label}
      </label>
    );
  }
  return (
    <label className="grid gap-1 text-xs text-gray-700">
      {label}
      {field.type === 'textarea' ? (
        <textarea disabled rows={2} className={inputClass} />
      ) : field.type === 'select' ? (
        <select disabled className={inputClass}>
          <option>{S.choose}</option>
          {optionLines(field.options).map((option) => (
            <option key={option}>{option}</option>
          ))}
        </select>
      ) : (
        <input
          disabled
          type={field.type === 'phone' ? 'tel' : field.type === 'number' ? 'number' : field.type}
          className={inputClass}
        />
      )}
    </label>
  );
}

export function WidgetPreview({ title, color, greeting, position, fields }: TWidgetPreviewProps) {
  const [open, setOpen] = useState(true);
  const brand = isHexColor(color) ? color : DEFAULT_COLOR;
  const onBrand = readableTextColor(brand);
  const side = position === 'left' ? 'left-4' : 'right-4';

  return (
    <div
      role="region"
      aria-label={S.region}
      data-position={position}
      className="relative h-[34rem] overflow-hidden rounded-lg border bg-gray-50 text-gray-900"
    >
      <div className="flex items-center gap-1.5 border-b bg-white px-3 py-2">
        <span className="size-2.5 rounded-full bg-gray-300" />
        <span className="size-2.5 rounded-full bg-gray-300" />
        <span className="size-2.5 rounded-full bg-gray-300" />
        <span className="ml-2 text-xs text-gray-500">{S.hostPage}</span>
      </div>
      {open ? (
        <div
          className={cn(
            'absolute bottom-20 flex max-h-[26rem] w-[min(18rem,calc(100%-2rem))] flex-col overflow-hidden rounded-xl bg-white shadow-xl',
            side,
          )}
        >
          <div className="flex items-center px-4 py-3" style={{ backgroundColor: brand, color: onBrand }}>
            <p className="min-w-0 flex-1 truncate text-sm font-semibold">{title}</p>
          </div>
          <div className="grid min-h-0 flex-1 content-start gap-3 overflow-y-auto p-3">
            <p className="w-fit max-w-[85%] rounded-lg bg-gray-100 px-3 py-2 text-sm whitespace-pre-wrap">
              {greeting.trim() || S.defaultGreeting}
            </p>
            {fields.length > 0 ? (
              <div className="grid gap-2">
                {fields.map((field, index) => (
                  <PreviewField key={index} field={field} index={index} />
                ))}
                <span
                  className="mt-1 rounded-md px-3 py-1.5 text-center text-xs font-medium"
                  style={{ backgroundColor: brand, color: onBrand }}
                >
                  {S.start}
                </span>
              </div>
            ) : null}
          </div>
          {fields.length === 0 ? (
            <div className="flex items-center gap-2 border-t p-2">
              <span className="flex-1 text-xs text-gray-500">{S.composer}</span>
              <SendIcon aria-hidden="true" className="size-4" style={{ color: brand }} />
            </div>
          ) : null}
        </div>
      ) : null}
      <button
        type="button"
        aria-label={open ? S.close : S.open}
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        className={cn(
          'absolute bottom-4 flex size-14 items-center justify-center rounded-full shadow-lg',
          side,
        )}
        style={{ backgroundColor: brand, color: onBrand }}
      >
        {open ? (
          <XIcon aria-hidden="true" className="size-6" />
        ) : (
          <MessageCircleIcon aria-hidden="true" className="size-6" />
        )}
      </button>
    </div>
  );
}
