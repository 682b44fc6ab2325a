/**
 * The widget URL request (Resources, "Widget URL": "Request object widget_url"), shared by
 * the widget and near-miss scenarios.
 */
import { needsDataRequest } from './members.ts';

/**
 * `{widget_url: {widget_type: connect_widget, ...fields}}`; from v20250224 with a
 * data_request (Versioning, changes in v20250224: "request widget URL take[s] a required
 * data_request with a products array"), inside widget_url where the request description
 * lists it (its place is not shown).
 */
export function widgetUrlBody(version: string, fields: Record<string, unknown> = {}) {
  const widget: Record<string, unknown> = { widget_type: 'connect_widget', ...fields };
  if (needsDataRequest(version)) widget.data_request = { products: ['transactions'] };
  return { widget_url: widget };
}
