import type { Executor } from '../../db/database.js';
import { createRegistrationsRepository } from './registrations.repository.js';
import { createTicketsRepository } from './tickets.repository.js';

/*
 * Tickets as other modules and the composition code need them (docs/decisions/server-boundaries.md, "Tables"):
 * a few questions and writes, each named for its use, never the repository itself. Like checkout's
 * orderQuestions, each takes an Executor (the database or the caller's transaction) and announces nothing on
 * the change feed: the caller publishes once its transaction commits. Registering, transferring, checking in
 * and listing stay in the tickets service.
 */

/** An event's seats: the row lock every stock change takes (holds, registrations, offers, cancellation) and the seats in use under it. */
export function eventSeats(executor: Executor) {
  const repo = createTicketsRepository(executor);
  return {
    /** The event row, any status; undefined when there is none. */
    findEvent: repo.findEvent,
    /** The event row, locked until the transaction ends (see the repository for why NO KEY UPDATE). */
    lockEvent: repo.lockEvent,
    /** Seats in use: valid tickets, live holds and seats offered on the waitlist, leaving out one order and one person's offer. */
    seatsTaken: repo.seatsTaken,
    /** The same in its three parts (an event's capacity edit says which part is in the way). */
    seatCounts: repo.seatCounts,
  };
}

/** Who is registered for an event (holds a ticket not given up): reviews, forums and the events' registeredUsers ask here. */
export function ticketRegistrations(executor: Executor) {
  const registrations = createRegistrationsRepository(executor);
  const tickets = createTicketsRepository(executor);
  return {
    isRegistered: registrations.isRegistered,
    /** Distinct registered user ids per event, for the contract's `registeredUsers` arrays. */
    registeredUserIds: registrations.registeredUserIds,
    /** Every holder of a valid ticket to the event, once each, with their email and language (an event that moved tells them). */
    validHolderContacts: tickets.validHolderContacts,
  };
}

/**
 * What checkout does to tickets inside its own transactions: a holder's self-cancel (lock, void), an event's
 * cancellation and a reversed payment (void them all), a guest's order claimed by an account (move its
 * tickets), and where to write to the holder afterwards.
 */
export function ticketRecords(executor: Executor) {
  const repo = createTicketsRepository(executor);
  return {
    findByIds: repo.findByIds,
    /** These tickets, locked until the transaction ends, in id order. */
    lockTickets: repo.lockTickets,
    /** Voids the holder's valid, not checked-in tickets among these; the caller compares the count with what it asked for. */
    voidTickets: repo.voidTickets,
    /** Voids an order's valid tickets (M-Pesa contradicted the payment they were issued on). */
    voidForOrder: repo.voidForOrder,
    /** Voids every valid ticket of the event (it was cancelled); the rows stay. */
    voidForEvent: repo.voidForEvent,
    /** Voids every valid ticket for one date of a series (it was cancelled); passes stay valid. */
    voidForDate: repo.voidForDate,
    /** An event becoming a series: its tickets so far are for its first date. */
    assignDate: repo.assignDate,
    /** Valid tickets for one date of a series, passes aside. */
    countForDate: repo.countForDate,
    /** Gives the order's tickets `fromUserId` still holds to `toUserId` (a guest's order claimed by an account); one given away stays. */
    moveOrderTickets: repo.moveOrderTickets,
    /** Where a user's ticket email goes. */
    userContact: repo.userContact,
  };
}

export { registeredUserIdsColumn } from './registrations.repository.js';
