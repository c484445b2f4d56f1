import { exportColumns } from '../devices/device.record.js';
import { COMPUTER_FIELDS } from './computer.fields.js';
import type { ComputerView } from './computer.types.js';

/** The computer export's columns, from its description; the Excel import reads the same headers (export → import round-trips). */
export const COMPUTER_COLUMNS = exportColumns<ComputerView>(COMPUTER_FIELDS);
