/** evmOutcomeOf (src/mappings/infra/eth.ts): the EVM outcome from a tx result as Cosmos EVM and Ethermint chains report it. */
import { AbiCoder } from 'ethers';
import { MsgData, TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { encodeMessage } from '../../../src/lib/contract';
import { evmOutcomeOf } from '../../../src/mappings/infra/eth';

const HASH = `0x${'ab'.repeat(32)}`;
const revertData = (text: string) => `0x08c379a0${AbiCoder.defaultAbiCoder().encode(['string'], [text]).slice(2)}`;

function response(
  type: 'cosmos.evm.vm.v1' | 'ethermint.evm.v1',
  r: { ret?: string; vm_error?: string; gas_used?: string },
): Uint8Array {
  return encodeMessage(`${type}.MsgEthereumTxResponse`, {
    hash: HASH,
    ret: Buffer.from((r.ret ?? '0x').slice(2), 'hex').toString('base64'),
    vm_error: r.vm_error ?? '',
    gas_used: r.gas_used ?? '0',
  });
}

const ethereumTx = (attrs: Record<string, string>) => ({
  type: 'ethereum_tx',
  attributes: Object.entries({ ethereumTxHash: HASH, ...attrs }).map(([key, value]) => ({ key, value })),
});

describe('evmOutcomeOf', () => {
  test('SDK >= 0.46: the response in msg_responses at the message index; a revert with its Error(string) data', () => {
    const data = TxMsgData.encode({
      data: [],
      msgResponses: [
        { typeUrl: '/svc.bank.Whatever', value: new Uint8Array([1]) },
        {
          typeUrl: '/cosmos.evm.vm.v1.MsgEthereumTxResponse',
          value: response('cosmos.evm.vm.v1', {
            ret: revertData('no funds'),
            vm_error: 'execution reverted',
            gas_used: '31000',
          }),
        },
      ],
    }).finish();
    expect(evmOutcomeOf({ data, events: [] }, 1, HASH)).toEqual({
      failed: true,
      gasUsed: 31000n,
      vmError: 'execution reverted',
      returnData: revertData('no funds'),
      recipient: '',
    });
    // the other message of the tx has no EVM response
    expect(evmOutcomeOf({ data, events: [] }, 0, HASH)).toBeNull();
  });

  test('SDK < 0.46 (Ethermint): the response in the legacy data list; success with return data', () => {
    const data = TxMsgData.encode({
      data: [
        MsgData.fromPartial({
          msgType: '/ethermint.evm.v1.MsgEthereumTx',
          data: response('ethermint.evm.v1', { ret: '0x01', gas_used: '21000' }),
        }),
      ],
      msgResponses: [],
    }).finish();
    expect(evmOutcomeOf({ data, events: [] }, 0, HASH)).toEqual({
      failed: false,
      gasUsed: 21000n,
      vmError: '',
      returnData: '0x01',
      recipient: '',
    });
  });

  test('the ethereum_tx event alone: failed from ethereumTxFailed, gas from txGasUsed, the created contract from recipient', () => {
    const events = [
      { type: 'message', attributes: [] },
      ethereumTx({ txGasUsed: '50000', ethereumTxFailed: 'out of gas', recipient: '0xCafe' }),
    ];
    expect(evmOutcomeOf({ data: new Uint8Array(0), events }, 0, HASH.toUpperCase().replace('0X', '0x'))).toEqual({
      failed: true,
      gasUsed: 50000n,
      vmError: 'out of gas',
      returnData: '',
      recipient: '0xCafe',
    });
    // another tx's event does not count
    expect(
      evmOutcomeOf(
        { data: new Uint8Array(0), events: [ethereumTx({ ethereumTxHash: `0x${'cd'.repeat(32)}` })] },
        0,
        HASH,
      ),
    ).toBeNull();
  });

  test('data that is not a TxMsgData: the event decides; neither: null', () => {
    const garbage = new Uint8Array([0xff, 0xff, 0xff]);
    expect(evmOutcomeOf({ data: garbage, events: [ethereumTx({ txGasUsed: '7' })] }, 0, HASH)).toEqual({
      failed: false,
      gasUsed: 7n,
      vmError: '',
      returnData: '',
      recipient: '',
    });
    expect(evmOutcomeOf({ data: garbage, events: [] }, 0, HASH)).toBeNull();
    expect(evmOutcomeOf({}, 0, HASH)).toBeNull();
  });
});
