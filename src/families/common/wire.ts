// Small helpers of the families' wire forms and pages.
import { XmlRpcDouble } from '../../xmlrpc/codec-encode.ts';

/**
 * A confidence as it goes out: always an XML-RPC <double> (BCMS documented them as floats
 * and Java clients cast them to Double), a plain number in JSON.
 */
export const double = (value: number | undefined): XmlRpcDouble | undefined => (value === undefined ? undefined : new XmlRpcDouble(value));
