/*
 * Ticket widget feature (docs/decisions/widget.md): the page framed on organisers' websites by /widget.js
 * (its layout and height reports; the route puts the tickets feature's box in it), and the organiser's
 * "Sell on your website" snippet box.
 */
export { EmbeddedEvent, EmbeddedFrame } from './components/embedded-event';
export { WidgetSnippetBox } from './components/widget-snippet-box';
