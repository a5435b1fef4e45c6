/*
 * The ticket types of an event with several, in the ticket box: each with its price, what is left or why it
 * cannot be bought now, and a quantity (0 to its most). Used by the signed-in box and the guest form alike.
 */
import { QuantityField } from '../../../components/ui/quantity-field';
import { formatShillings } from '../../../lib/format';
import type { TicketTypeView } from '../../../types/api';
import { typeMaximum, typeSeatsLabel, typeStateLabel, type TypeSelection } from '../lib/ticket-order';
import '../ticket-order.css';
import { useT } from '../../../lib/i18n';

export interface TypePickerProps {
  types: TicketTypeView[];
  selection: TypeSelection;
  onChange: (typeId: string, quantity: number) => void;
  disabled?: boolean;
}

export function TypePicker({ types, selection, onChange, disabled }: TypePickerProps) {
  const t = useT();
  const total = types.reduce((sum, type) => sum + (selection[type._id] ?? 0), 0);
  return (
    <ul className="type-picker" aria-label={t('tickets.ticketTypes')}>
      {types.map((type) => {
        const chosen = selection[type._id] ?? 0;
        const max = typeMaximum(type, total - chosen);
        const blocked = typeStateLabel(type);
        const left = typeSeatsLabel(type);
        return (
          <li key={type._id} className={`type-picker__type${blocked ? ' type-picker__type--off' : ''}`}>
            <div className="type-picker__about">
              <p className="type-picker__name">{type.name}</p>
              <p className="type-picker__price">{formatShillings(type.price)}</p>
              {blocked ? <p className="type-picker__state">{blocked}</p> : left ? <p className="type-picker__left">{left}</p> : null}
            </div>
            {blocked ? null : (
              <QuantityField
                label={t('tickets.typeTickets', { name: type.name })}
                className="type-picker__quantity"
                value={chosen}
                min={0}
                max={Math.max(chosen, max)}
                disabled={disabled}
                onChange={(quantity) => onChange(type._id, quantity)}
              />
            )}
          </li>
        );
      })}
    </ul>
  );
}
