/** The SMS module's public face (docs/decisions/sms.md): the outbox, Africa's Talking and its offline simulator. */
export { createAfricasTalkingGateway, type SmsGateway } from './africas-talking.js';
export { createSmsSimulator, SMS_SIMULATOR_API_KEY, SMS_SIMULATOR_USERNAME } from './sms-simulator.js';
export { createSmsRouter } from './sms.routes.js';
export { createSmsService, type SmsService, type SmsToSend } from './sms.service.js';
export { smsPersonalData } from './personal-data.js';
